package dev.frontrun.demo.petclinic.pet;

import dev.frontrun.demo.petclinic.owner.Owner;
import dev.frontrun.demo.petclinic.owner.OwnerRepository;
import dev.frontrun.demo.petclinic.owner.OwnerView;
import dev.frontrun.demo.petclinic.system.Flows;
import dev.frontrun.demo.petclinic.system.FormBinder;
import dev.frontrun.demo.petclinic.system.InvalidFormException;
import dev.frontrun.demo.petclinic.system.NotFoundException;
import dev.frontrun.demo.petclinic.system.StaleFormException;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.util.StringUtils;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The sample's pet routes: add a pet (the duplicate-name race) and edit one (a rename). */
@RestController
class PetController {

    /** The pet form's fields; {@code type} is a pet type's name. */
    static final String[] FIELDS = {"name", "birthDate", "type"};

    private final OwnerRepository owners;
    private final FormBinder forms;
    private final Flows flows;

    PetController(OwnerRepository owners, FormBinder forms, Flows flows) {
        this.owners = owners;
        this.forms = forms;
        this.flows = flows;
    }

    @GetMapping("/owners/{ownerId}/pets/{petId}/edit")
    PetView initUpdateForm(@PathVariable int ownerId, @PathVariable int petId) {
        return PetView.of(pet(owners.load(ownerId), petId));
    }

    /**
     * Add a pet. The "already has a pet with this name" rule is checked in Java against the pets
     * as loaded. Classic: the check sees tx 1's snapshot and the insert happens in tx 2, so two
     * requests that both load before either saves both pass it and both insert — race 1. Fixed:
     * one transaction, and the unique index rejects the loser ({@link UniquePetNames}).
     */
    @PostMapping("/owners/{ownerId}/pets/new")
    ResponseEntity<OwnerView> processCreationForm(@PathVariable int ownerId, HttpServletRequest request) {
        Owner saved = UniquePetNames.rejectDuplicates(() -> flows.run("PetController.processCreationForm", () -> {
            Owner owner = owners.load(ownerId); // classic: tx 1
            Pet pet = new Pet();
            BindingResult result = forms.bind(pet, request, FIELDS, new PetValidator());
            if (StringUtils.hasText(pet.getName()) && owner.getPet(pet.getName(), true) != null) {
                result.rejectValue("name", "duplicate", "already exists"); // Java only
            }
            InvalidFormException.requireValid(result);
            owner.addPet(pet);
            return owners.save(owner); // classic: tx 2, merge -> INSERT pet
        }));
        return ResponseEntity.status(HttpStatus.CREATED).body(OwnerView.of(saved));
    }

    /**
     * Edit (e.g. rename) a pet: binds onto the owner's copy of the pet and saves the owner, as the
     * sample does. Classic: the save merges the whole detached owner, so it also writes back the
     * owner's fields as loaded.
     */
    @PostMapping("/owners/{ownerId}/pets/{petId}/edit")
    OwnerView processUpdateForm(
            @PathVariable int ownerId,
            @PathVariable int petId,
            @RequestParam(required = false) Integer version,
            HttpServletRequest request) {
        Owner saved = UniquePetNames.rejectDuplicates(() -> flows.run("PetController.processUpdateForm", () -> {
            Owner owner = owners.load(ownerId); // classic: tx 1
            Pet pet = pet(owner, petId);
            StaleFormException.requireCurrent(pet, version); // fixed: hidden field
            BindingResult result = forms.bind(pet, request, FIELDS, new PetValidator());
            if (StringUtils.hasText(pet.getName()) && hasOtherPetNamed(owner, pet)) {
                result.rejectValue("name", "duplicate", "already exists"); // Java only
            }
            InvalidFormException.requireValid(result);
            return owners.save(owner); // classic: tx 2
        }));
        return OwnerView.of(saved);
    }

    private static Pet pet(Owner owner, int petId) {
        Pet pet = owner.getPet(petId);
        if (pet == null) {
            throw new NotFoundException("owner " + owner.getId() + " has no pet " + petId);
        }
        return pet;
    }

    private static boolean hasOtherPetNamed(Owner owner, Pet pet) {
        return owner.getPets().stream()
                .anyMatch(other -> other != pet && pet.getName().equalsIgnoreCase(other.getName()));
    }
}
