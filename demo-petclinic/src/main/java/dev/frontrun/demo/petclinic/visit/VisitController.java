package dev.frontrun.demo.petclinic.visit;

import dev.frontrun.demo.petclinic.owner.Owner;
import dev.frontrun.demo.petclinic.owner.OwnerRepository;
import dev.frontrun.demo.petclinic.owner.OwnerView;
import dev.frontrun.demo.petclinic.system.Flows;
import dev.frontrun.demo.petclinic.system.FormBinder;
import dev.frontrun.demo.petclinic.system.InvalidFormException;
import dev.frontrun.demo.petclinic.system.NotFoundException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.function.Consumer;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The sample's add-visit route; booking a visit, which also takes a slot of its day from the
 * reservation service ({@link SlotReservations}) before the visit is saved; and a visit the owner
 * books online, within the owner's daily limit ({@link OnlineBookingLimit}).
 *
 * <p>Adding a visit, classic: it loads the owner (tx 1) and saves the whole owner to
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
    private final SlotReservations reservations;
    private final OnlineBookingLimit onlineLimit;

    VisitController(
            OwnerRepository owners,
            FormBinder forms,
            Flows flows,
            SlotReservations reservations,
            OnlineBookingLimit onlineLimit) {
        this.owners = owners;
        this.forms = forms;
        this.flows = flows;
        this.reservations = reservations;
        this.onlineLimit = onlineLimit;
    }

    @PostMapping("/owners/{ownerId}/pets/{petId}/visits/new")
    ResponseEntity<OwnerView> processNewVisitForm(
            @PathVariable int ownerId, @PathVariable int petId, HttpServletRequest request) {
        return addVisit("VisitController.processNewVisitForm", ownerId, petId, request, visit -> {});
    }

    /** Like adding a visit, but the visit's day must have a free slot at the reservation service (409 if not). */
    @PostMapping("/owners/{ownerId}/pets/{petId}/visits/book")
    ResponseEntity<OwnerView> bookVisit(
            @PathVariable int ownerId, @PathVariable int petId, HttpServletRequest request) {
        return addVisit(
                "VisitController.bookVisit", ownerId, petId, request, visit -> reservations.reserve(visit.getDate()));
    }

    /** Like adding a visit, booked by the owner online: at most the daily limit a day per owner (429 beyond it). */
    @PostMapping("/owners/{ownerId}/pets/{petId}/visits/online")
    ResponseEntity<OwnerView> bookVisitOnline(
            @PathVariable int ownerId, @PathVariable int petId, HttpServletRequest request) {
        return onlineLimit.book(
                ownerId, () -> addVisit("VisitController.bookVisitOnline", ownerId, petId, request, visit -> {}));
    }

    private ResponseEntity<OwnerView> addVisit(
            String flow, int ownerId, int petId, HttpServletRequest request, Consumer<Visit> beforeSaving) {
        Owner saved = flows.run(flow, () -> {
            Owner owner = owners.load(ownerId); // classic: tx 1
            if (owner.getPet(petId) == null) {
                throw new NotFoundException("owner " + ownerId + " has no pet " + petId);
            }
            Visit visit = new Visit();
            InvalidFormException.requireValid(forms.bind(visit, request, FIELDS));
            beforeSaving.accept(visit);
            owner.addVisit(petId, visit);
            return owners.save(owner); // classic: tx 2, merge -> INSERT visit
        });
        return ResponseEntity.status(HttpStatus.CREATED).body(OwnerView.of(saved));
    }
}
