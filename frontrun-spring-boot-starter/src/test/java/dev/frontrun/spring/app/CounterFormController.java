package dev.frontrun.spring.app;

import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.InitBinder;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A form edit shaped like upstream PetClinic's owner edit: a {@code @ModelAttribute} method loads the
 * counter in a transaction of its own, an {@code @InitBinder} method reads the table before binding,
 * and the handler saves in a third transaction — a lost update between two requests.
 */
@RestController
public class CounterFormController {

    private final CounterRepository counters;

    public CounterFormController(CounterRepository counters) {
        this.counters = counters;
    }

    /** Runs before every handler of this controller, in a repository transaction of its own. */
    @ModelAttribute("counter")
    public Counter findCounter(@PathVariable long id) {
        return counters.findById(id).orElseThrow();
    }

    /** Runs when the form is bound onto the counter: refuses to bind while no counter exists. */
    @InitBinder("counter")
    public void checkCounters(WebDataBinder binder) {
        if (counters.count() == 0) {
            binder.setDisallowedFields("*");
        }
    }

    @PostMapping("/counter-forms/{id}/edit")
    public int processEdit(@ModelAttribute("counter") Counter counter) {
        counter.setN(counter.getN() + 1);
        return counters.save(counter).getN();
    }
}
