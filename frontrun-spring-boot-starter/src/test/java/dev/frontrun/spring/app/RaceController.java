package dev.frontrun.spring.app;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The HTTP face of the services; each POST is one request a user could send twice at once. */
@RestController
public class RaceController {

    private final CounterService counters;
    private final VersionedCounterService versionedCounters;
    private final MemberService members;

    public RaceController(CounterService counters, VersionedCounterService versionedCounters, MemberService members) {
        this.counters = counters;
        this.versionedCounters = versionedCounters;
        this.members = members;
    }

    @PostMapping("/counters/{id}/increment")
    public int increment(@PathVariable long id) {
        return counters.increment(id);
    }

    @PostMapping("/counters/{id}/increment-locked")
    public int incrementLocked(@PathVariable long id) {
        return counters.incrementLocked(id);
    }

    @PostMapping("/counters/{id}/increment-atomic")
    public void incrementAtomically(@PathVariable long id) {
        counters.incrementAtomically(id);
    }

    @PostMapping("/versioned-counters/{id}/increment")
    public int incrementVersioned(@PathVariable long id) {
        return versionedCounters.increment(id);
    }

    @PostMapping("/versioned-counters/{id}/increment-once")
    public int incrementVersionedOnce(@PathVariable long id) {
        return versionedCounters.incrementOnce(id);
    }

    @PostMapping("/members")
    public ResponseEntity<Long> register(@RequestParam String name) {
        Long id = members.register(name);
        return id == null
                ? ResponseEntity.status(HttpStatus.CONFLICT).build()
                : ResponseEntity.status(HttpStatus.CREATED).body(id);
    }
}
