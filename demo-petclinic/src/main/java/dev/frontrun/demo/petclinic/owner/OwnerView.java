package dev.frontrun.demo.petclinic.owner;

import dev.frontrun.demo.petclinic.pet.PetView;
import java.util.List;

/**
 * The owner page (and edit form) as JSON: what the sample's {@code redirect:/owners/{id}} would
 * show. {@code version} is the form's hidden field; {@code null} in the classic variant.
 */
public record OwnerView(
        Integer id,
        Integer version,
        String firstName,
        String lastName,
        String address,
        String city,
        String telephone,
        List<PetView> pets) {

    public static OwnerView of(Owner owner) {
        return new OwnerView(
                owner.getId(),
                owner.getVersion(),
                owner.getFirstName(),
                owner.getLastName(),
                owner.getAddress(),
                owner.getCity(),
                owner.getTelephone(),
                owner.getPets().stream().map(PetView::of).toList());
    }
}
