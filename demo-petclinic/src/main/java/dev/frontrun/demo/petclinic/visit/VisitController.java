package dev.frontrun.demo.petclinic.visit;

import dev.frontrun.demo.petclinic.owner.Owner;
import dev.frontrun.demo.petclinic.owner.OwnerRepository;
import dev.frontrun.demo.petclinic.owner.OwnerView;
import dev.frontrun.demo.petclinic.system.Flows;
import dev.frontrun.demo.petclinic.system.FormBinder;
import dev.frontrun.demo.petclinic.system.InvalidFormException;
import dev.frontrun.demo.petclinic.system.NotFoundException;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The sample's add-visit route. Classic: it loads the owner (tx 1) and saves the whole owner to
 * insert one visit (tx 2); the merge cascades owner -> pets -> visits, so it also writes back the
 * pets as loaded — a rename committed in between is reverted (race 3). Two visits to one pet do
 * not clash: each merge inserts only its own new visit (control 4).
 */
@RestController
class VisitController {

    static final String[] FIELDS = {"date", "description"};

    private final OwnerRepository owners;
    private final FormBinder forms;
    private final Flows flows;

    VisitController(OwnerRepository owners, FormBinder forms, Flows flows) {
        this.owners = owners;
        this.forms = forms;
        this.flows = flows;
    }

    @PostMapping("/owners/{ownerId}/pets/{petId}/visits/new")
    ResponseEntity<OwnerView> processNewVisitForm(@PathVariable int ownerId, @PathVariable int petId,
            HttpServletRequest request) {
        Owner saved = flows.run("VisitController.processNewVisitForm", () -> {
            Owner owner = owners.load(ownerId);                                  // classic: tx 1
            if (owner.getPet(petId) == null) {
                throw new NotFoundException("owner " + ownerId + " has no pet " + petId);
            }
            Visit visit = new Visit();
            InvalidFormException.requireValid(forms.bind(visit, request, FIELDS));
            owner.addVisit(petId, visit);
            return owners.save(owner);                   // classic: tx 2, merge -> INSERT visit
        });
        return ResponseEntity.status(HttpStatus.CREATED).body(OwnerView.of(saved));
    }
}
