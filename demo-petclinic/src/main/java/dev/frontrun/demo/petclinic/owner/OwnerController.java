package dev.frontrun.demo.petclinic.owner;

import dev.frontrun.demo.petclinic.system.Flows;
import dev.frontrun.demo.petclinic.system.FormBinder;
import dev.frontrun.demo.petclinic.system.InvalidFormException;
import dev.frontrun.demo.petclinic.system.StaleFormException;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The sample's owner routes: find, show, create, and edit (the lost-update race). */
@RestController
class OwnerController {

    /** The owner form's fields; {@code id} and {@code version} are never bound onto the entity. */
    static final String[] FIELDS = {"firstName", "lastName", "address", "city", "telephone"};

    private final OwnerRepository owners;
    private final FormBinder forms;
    private final Flows flows;

    OwnerController(OwnerRepository owners, FormBinder forms, Flows flows) {
        this.owners = owners;
        this.forms = forms;
        this.flows = flows;
    }

    @GetMapping("/owners")
    List<OwnerView> processFindForm(@RequestParam(defaultValue = "") String lastName) {
        return owners.findByLastNameStartingWithOrderByLastNameAscIdAsc(lastName).stream()
                .map(OwnerView::of)
                .toList();
    }

    @PostMapping("/owners/new")
    ResponseEntity<OwnerView> processCreationForm(HttpServletRequest request) {
        Owner owner = new Owner();
        InvalidFormException.requireValid(forms.bind(owner, request, FIELDS));
        Owner saved = owners.save(owner);
        return ResponseEntity.created(URI.create("/owners/" + saved.getId())).body(OwnerView.of(saved));
    }

    @GetMapping({"/owners/{ownerId}", "/owners/{ownerId}/edit"})
    OwnerView showOwner(@PathVariable int ownerId) {
        return OwnerView.of(owners.load(ownerId));
    }

    /**
     * Edit: like the sample, binds the posted fields onto the owner just loaded and saves it. In
     * the classic variant the load (tx 1) and the save (tx 2, a merge that writes every column of
     * the owner and cascades into its pets) are separate transactions: a concurrent edit that
     * commits in between is overwritten with this request's stale copy — race 2 (lost update) and,
     * through the cascade, race 3 (a pet rename reverted).
     */
    @PostMapping("/owners/{ownerId}/edit")
    OwnerView processUpdateOwnerForm(
            @PathVariable int ownerId, @RequestParam(required = false) Integer version, HttpServletRequest request) {
        Owner saved = flows.run("OwnerController.processUpdateOwnerForm", () -> {
            Owner owner = owners.load(ownerId); // classic: tx 1
            StaleFormException.requireCurrent(owner, version); // fixed: the hidden field
            InvalidFormException.requireValid(forms.bind(owner, request, FIELDS));
            return owners.save(owner); // classic: tx 2, merge
        });
        return OwnerView.of(saved);
    }
}
