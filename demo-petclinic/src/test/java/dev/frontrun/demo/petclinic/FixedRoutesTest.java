package dev.frontrun.demo.petclinic;

import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;

/** The routes in the fixed variant ({@link RouteContract}), plus the version handling. */
class FixedRoutesTest extends FixedVariant implements RouteContract {

    @Test
    void formsCarryTheVersionAndEditsAdvanceIt() throws Exception {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Rex");
        clinic().ownerForm(owner).andExpect(jsonPath("$.version").value(0));
        clinic().editOwner(owner, "city", "Verona", "version", "0")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.version").value(1));
        clinic().petForm(owner, pet).andExpect(jsonPath("$.version").value(0));
        clinic().editPet(owner, pet, "name", "Rexy", "version", "0")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.pets[0].version").value(1));
    }

    @Test
    void aStaleOwnerFormAnswersConflictAndChangesNothing() throws Exception {
        int owner = clinic().newOwner();
        clinic().editOwner(owner, "city", "Verona", "version", "0").andExpect(status().isOk());
        clinic().editOwner(owner, "telephone", "1112223333", "version", "0")
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.error").value("conflict"));
        clinic().showOwner(owner)
                .andExpect(jsonPath("$.telephone").value("6085550000"))
                .andExpect(jsonPath("$.city").value("Verona"))
                .andExpect(jsonPath("$.version").value(1));
    }

    @Test
    void aStalePetFormAnswersConflictAndChangesNothing() throws Exception {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Rex");
        clinic().editPet(owner, pet, "name", "Rexy", "version", "0").andExpect(status().isOk());
        clinic().editPet(owner, pet, "name", "Rexo", "version", "0").andExpect(status().isConflict());
        clinic().petForm(owner, pet).andExpect(jsonPath("$.name").value("Rexy"));
    }

    @Test
    void addingPetsAndVisitsIsNotAnEditOfTheOwnerOrThePet() throws Exception {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Rex");
        clinic().addVisit(owner, pet, "checkup").andExpect(status().isCreated());
        clinic().newPet(owner, "Max");
        clinic().ownerForm(owner).andExpect(jsonPath("$.version").value(0));
        clinic().petForm(owner, pet).andExpect(jsonPath("$.version").value(0));
    }
}
