package dev.frontrun.demo.petclinic;

import static dev.frontrun.demo.petclinic.PetClinicClient.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.frontrun.demo.petclinic.owner.Owner;
import dev.frontrun.demo.petclinic.visit.Visit;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.OptimisticLockingFailureException;

/**
 * The interleavings of {@link ClassicRacesTest} against the fixed variant. Two kinds:
 * <ul>
 *   <li>{@code flow}: a fixed flow (one transaction, {@link #inOneTransaction}) with the other
 *       request run to completion in the middle of it, on another thread (it must not join the
 *       transaction; it never waits for it, since the flow has only read so far);
 *   <li>{@code twoTx}: the classic two-transaction interleaving, to show that the fixed schema and
 *       mapping alone already turn each silent anomaly into an error.
 * </ul>
 */
class FixedRacesTest extends FixedVariant {

    @Test
    void race1_flow_theLaterDuplicateFailsOnTheUniqueIndex() throws Exception {
        int owner = clinic().newOwner();
        assertThatThrownBy(() -> inOneTransaction(() -> {
                    Owner add = owners.load(owner);
                    assertThat(add.getPet("Max", true)).isNull(); // check passes
                    assertThat(meanwhile(() -> clinic().addPet(owner, "max"))).isEqualTo(201);
                    add.addPet(newPet("Max"));
                    return owners.save(add);
                }))
                .isInstanceOf(DataIntegrityViolationException.class);

        assertThat(petsNamed(owner, "max")).isEqualTo(1);
    }

    @Test
    void race1_http_aTwinCommittedAfterTheNameCheckGivesTheDuplicateError() throws Exception {
        int owner = clinic().newOwner();
        addPetRacingAnUncommittedTwin(owner, "Max")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors.name").value("already exists"));

        assertThat(petsNamed(owner, "max")).isEqualTo(1);
    }

    @Test
    void race1_twoTx_theIndexRejectsTheSecondInsert() {
        int owner = clinic().newOwner();
        Owner a = owners.load(owner);
        Owner b = owners.load(owner);
        a.addPet(newPet("Max"));
        owners.save(a);
        b.addPet(newPet("max"));
        assertThatThrownBy(() -> owners.save(b)).isInstanceOf(DataIntegrityViolationException.class);

        assertThat(petsNamed(owner, "max")).isEqualTo(1);
    }

    @Test
    void race2_flow_theLaterEditConflictsInsteadOfOverwriting() {
        int owner = clinic().newOwner();
        assertThatThrownBy(() -> inOneTransaction(() -> {
                    Owner edit = owners.load(owner);
                    assertThat(meanwhile(() -> clinic().editOwner(owner, "telephone", "1112223333")))
                            .isEqualTo(200);
                    edit.setCity("Verona");
                    return owners.save(edit);
                }))
                .isInstanceOf(OptimisticLockingFailureException.class);

        assertThat(ownerColumn(owner, "telephone")).isEqualTo("1112223333");
        assertThat(ownerColumn(owner, "city")).isEqualTo("Madison"); // rejected, not lost
    }

    @Test
    void race2_http_aStaleFullFormAnswersConflict() throws Exception {
        int owner = clinic().newOwner();
        OwnerForm a = OwnerForm.of(clinic().ownerForm(owner));
        OwnerForm b = OwnerForm.of(clinic().ownerForm(owner));
        clinic().editOwner(owner, a.with("city", "Verona")).andExpect(status().isOk());
        clinic().editOwner(owner, b.with("telephone", "1112223333")).andExpect(status().isConflict());

        assertThat(ownerColumn(owner, "city")).isEqualTo("Verona");
        assertThat(ownerColumn(owner, "telephone")).isEqualTo("6085550000");
    }

    @Test
    void race2_twoTx_theSecondMergeIsStale() {
        int owner = clinic().newOwner();
        Owner a = owners.load(owner);
        Owner b = owners.load(owner);
        a.setCity("Verona");
        owners.save(a);
        b.setTelephone("1112223333");
        assertThatThrownBy(() -> owners.save(b)).isInstanceOf(OptimisticLockingFailureException.class);

        assertThat(ownerColumn(owner, "city")).isEqualTo("Verona");
    }

    @Test
    void race3_flow_anOwnerEditKeepsAConcurrentPetRename() {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Leo");
        inOneTransaction(() -> {
            Owner edit = owners.load(owner);
            assertThat(meanwhile(() -> clinic().editPet(owner, pet, "name", "Leonardo")))
                    .isEqualTo(200);
            edit.setCity("Verona");
            return owners.save(edit);
        });

        assertThat(ownerColumn(owner, "city")).isEqualTo("Verona");
        assertThat(petName(pet)).isEqualTo("Leonardo");
    }

    @Test
    void race3_http_anOwnerFormLoadedBeforeAPetRenameIsAcceptedAndKeepsIt() throws Exception {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Leo");
        OwnerForm form = OwnerForm.of(clinic().ownerForm(owner));
        clinic().editPet(owner, pet, "name", "Leonardo").andExpect(status().isOk());
        clinic().editOwner(owner, form.with("city", "Verona")).andExpect(status().isOk());
        clinic().addVisit(owner, pet, "checkup").andExpect(status().isCreated());

        assertThat(ownerColumn(owner, "city")).isEqualTo("Verona");
        assertThat(petName(pet)).isEqualTo("Leonardo");
    }

    @Test
    void race3_flow_anAddVisitKeepsAConcurrentPetRename() {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Leo");
        inOneTransaction(() -> {
            Owner add = owners.load(owner);
            assertThat(meanwhile(() -> clinic().editPet(owner, pet, "name", "Leonardo")))
                    .isEqualTo(200);
            add.addVisit(pet, visit("checkup"));
            return owners.save(add);
        });

        assertThat(visitCount(pet)).isEqualTo(1);
        assertThat(petName(pet)).isEqualTo("Leonardo");
    }

    @Test
    void race3_twoTx_theStalePetIsRejectedNotWrittenBack() throws Exception {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Leo");
        Owner edit = owners.load(owner);
        clinic().editPet(owner, pet, "name", "Leonardo").andExpect(status().isOk());
        edit.setCity("Verona");
        assertThatThrownBy(() -> owners.save(edit)).isInstanceOf(OptimisticLockingFailureException.class);

        assertThat(petName(pet)).isEqualTo("Leonardo");
    }

    @Test
    void control4_flow_twoVisitsToOnePetAreBothKeptWithoutConflict() {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Leo");
        inOneTransaction(() -> {
            Owner a = owners.load(owner);
            assertThat(meanwhile(() -> clinic().addVisit(owner, pet, "b"))).isEqualTo(201);
            a.addVisit(pet, visit("a"));
            return owners.save(a);
        });

        assertThat(visitCount(pet)).isEqualTo(2);
    }

    @Test
    void control4_flow_anOwnerEditAndAnAddPetKeepBothInEitherOrder() {
        int owner = clinic().newOwner();
        clinic().newPet(owner, "Leo");
        inOneTransaction(() -> {
            Owner edit = owners.load(owner);
            assertThat(meanwhile(() -> clinic().addPet(owner, "Rex"))).isEqualTo(201);
            edit.setCity("Verona");
            return owners.save(edit);
        });
        inOneTransaction(() -> {
            Owner add = owners.load(owner);
            assertThat(meanwhile(() -> clinic().editOwner(owner, "telephone", "1112223333")))
                    .isEqualTo(200);
            add.addPet(newPet("Max"));
            return owners.save(add);
        });

        assertThat(petCount(owner)).isEqualTo(3);
        assertThat(ownerColumn(owner, "city")).isEqualTo("Verona");
        assertThat(ownerColumn(owner, "telephone")).isEqualTo("1112223333");
    }

    @Test
    void control4_http_addingAPetDoesNotMakeAnOwnerFormStale() throws Exception {
        int owner = clinic().newOwner();
        OwnerForm form = OwnerForm.of(clinic().ownerForm(owner));
        clinic().addPet(owner, "Rex").andExpect(status().isCreated());
        var edited = clinic().editOwner(owner, form.with("city", "Verona")).andExpect(status().isOk());

        assertThat((Integer) read(edited, "$.version")).isEqualTo(1);
        assertThat(petCount(owner)).isEqualTo(1);
    }

    private static Visit visit(String description) {
        Visit visit = new Visit();
        visit.setDescription(description);
        return visit;
    }
}
