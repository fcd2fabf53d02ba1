package dev.frontrun.demo.petclinic.vet;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /vets}: the vets and their specialties. */
@RestController
class VetController {

    private final VetRepository vets;

    VetController(VetRepository vets) {
        this.vets = vets;
    }

    @GetMapping("/vets")
    Vets showVetList() {
        return new Vets(vets.findAllByOrderByLastNameAscFirstNameAsc().stream()
                .map(Vets.VetView::of)
                .toList());
    }
}
