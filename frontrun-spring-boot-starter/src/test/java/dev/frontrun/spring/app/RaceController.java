package dev.frontrun.spring.app;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.orm.ObjectOptimisticLockingFailureException;
import org.springframework.web.bind.annotation.GetMapping;
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

    @GetMapping("/counters/{id}/read-twice")
    public String readTwice(@PathVariable long id) {
        return counters.readTwice(id);
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

    /** One attempt; a stale write is answered 409, for the caller to send again. */
    @PostMapping("/versioned-counters/{id}/increment-or-conflict")
    public ResponseEntity<Integer> incrementVersionedOrConflict(@PathVariable long id) {
        try {
            return ResponseEntity.ok(versionedCounters.incrementOnce(id));
        } catch (ObjectOptimisticLockingFailureException stale) {
            return ResponseEntity.status(HttpStatus.CONFLICT).build();
        }
    }

    @PostMapping("/members")
    public ResponseEntity<Long> register(@RequestParam String name) {
        return registered(members.register(name));
    }

    @PostMapping("/members/locked")
    public ResponseEntity<Long> registerLocked(@RequestParam String name) {
        return registered(members.registerLocked(name));
    }

    private static ResponseEntity<Long> registered(Long id) {
        return id == null
                ? ResponseEntity.status(HttpStatus.CONFLICT).build()
                : ResponseEntity.status(HttpStatus.CREATED).body(id);
    }
}
