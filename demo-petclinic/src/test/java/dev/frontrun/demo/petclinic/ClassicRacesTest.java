package dev.frontrun.demo.petclinic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.frontrun.demo.petclinic.owner.Owner;
import dev.frontrun.demo.petclinic.visit.Visit;
import org.junit.jupiter.api.Test;

/**
 * The races of the classic variant, reproduced deterministically by interleaving by hand the steps
 * each controller performs ({@code owners.load} = tx 1, bind, check, {@code owners.save} = tx 2,
 * a merge of the detached owner). The "other request" is a real MockMvc request run between
 * them. Each test states the anomaly it shows; the controls show that the structure does not
 * lose the data it is said not to lose. The fixed variant's answers: {@link FixedRacesTest}.
 */
class ClassicRacesTest extends ClassicVariant {

    /** Race 1: both requests pass the Java-only name check on their snapshot, both insert. */
    @Test
    void race1_twoAddPetRequestsWithTheSameNameBothInsert() {
        int owner = clinic().newOwner();
        Owner a = owners.load(owner); // request A, tx 1
        Owner b = owners.load(owner); // request B, tx 1
        assertThat(a.getPet("Max", true)).isNull(); // A: name check passes
        a.addPet(newPet("Max"));
        owners.save(a); // A, tx 2: INSERT Max
        assertThat(b.getPet("Max", true)).isNull(); // B: passes too, on its stale pets
        b.addPet(newPet("max"));
        owners.save(b); // B, tx 2: INSERT max

        assertThat(petsNamed(owner, "max")).isEqualTo(2); // the duplicate the rule forbids
    }

    /** Race 1 over HTTP: a twin committed after the request's check is stored next to it. */
    @Test
    void race1_aTwinCommittedAfterTheNameCheckIsStoredToo() throws Exception {
        int owner = clinic().newOwner();
        addPetRacingAnUncommittedTwin(owner, "Max").andExpect(status().isCreated());

        assertThat(petsNamed(owner, "max")).isEqualTo(2);
    }

    /** Race 2: each edit writes back every column as it loaded it; the first change is lost. */
    @Test
    void race2_twoPartialEditsLoseTheFirstChange() {
        int owner = clinic().newOwner();
        Owner a = owners.load(owner); // edit A (city), tx 1
        Owner b = owners.load(owner); // edit B (telephone), tx 1
        a.setCity("Verona");
        owners.save(a); // A, tx 2
        b.setTelephone("1112223333");
        owners.save(b); // B, tx 2: city = 'Madison' again

        assertThat(ownerColumn(owner, "telephone")).isEqualTo("1112223333");
        assertThat(ownerColumn(owner, "city")).isEqualTo("Madison"); // A's edit: lost
    }

    /** Race 2 as a browser does it: two full forms, each loaded before the other was posted. */
    @Test
    void race2_twoStaleFullFormsLoseTheFirstChange() throws Exception {
        int owner = clinic().newOwner();
        OwnerForm a = OwnerForm.of(clinic().ownerForm(owner));
        OwnerForm b = OwnerForm.of(clinic().ownerForm(owner));
        clinic().editOwner(owner, a.with("city", "Verona")).andExpect(status().isOk());
        clinic().editOwner(owner, b.with("telephone", "1112223333")).andExpect(status().isOk());

        assertThat(ownerColumn(owner, "city")).isEqualTo("Madison"); // lost
        assertThat(ownerColumn(owner, "telephone")).isEqualTo("1112223333");
    }

    /** Race 3: an owner edit built from a read older than a pet rename reverts the rename. */
    @Test
    void race3_aStaleOwnerEditRevertsAPetRename() throws Exception {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Leo");
        Owner edit = owners.load(owner); // owner edit, tx 1 (pets too)
        clinic().editPet(owner, pet, "name", "Leonardo").andExpect(status().isOk()); // commits
        edit.setCity("Verona");
        owners.save(edit); // tx 2: merge cascades to the pet

        assertThat(ownerColumn(owner, "city")).isEqualTo("Verona");
        assertThat(petName(pet)).isEqualTo("Leo"); // the rename: reverted
    }

    /** Race 3 via add-visit: saving the owner to add a visit writes the stale pet back too. */
    @Test
    void race3_aStaleAddVisitRevertsAPetRename() throws Exception {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Leo");
        Owner visit = owners.load(owner); // add-visit, tx 1
        clinic().editPet(owner, pet, "name", "Leonardo").andExpect(status().isOk());
        visit.addVisit(pet, visit("checkup"));
        owners.save(visit); // tx 2

        assertThat(visitCount(pet)).isEqualTo(1);
        assertThat(petName(pet)).isEqualTo("Leo"); // reverted
    }

    /** The same mechanism the other way round: a stale pet rename reverts an owner edit. */
    @Test
    void race3_aStalePetRenameRevertsAnOwnerEdit() throws Exception {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Leo");
        Owner rename = owners.load(owner); // pet edit, tx 1
        clinic().editOwner(owner, "city", "Verona").andExpect(status().isOk());
        rename.getPet(pet).setName("Leonardo");
        owners.save(rename); // tx 2: merges the stale owner

        assertThat(petName(pet)).isEqualTo("Leonardo");
        assertThat(ownerColumn(owner, "city")).isEqualTo("Madison"); // reverted
    }

    /** Control 4: two visits to one pet — each merge inserts only its own new visit. */
    @Test
    void control4_twoVisitsToOnePetAreBothKept() {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Leo");
        Owner a = owners.load(owner);
        Owner b = owners.load(owner);
        a.addVisit(pet, visit("a"));
        owners.save(a);
        b.addVisit(pet, visit("b"));
        owners.save(b);

        assertThat(visitCount(pet)).isEqualTo(2);
        assertThat(petName(pet)).isEqualTo("Leo");
    }

    /**
     * Control 4: an owner edit while another request adds a differently named pet. The new pet is
     * never lost — the merge diffs the pets against the stale snapshot, so it does not unlink a
     * pet it never saw — and when the edit saves last, the edit is kept too.
     */
    @Test
    void control4_anOwnerEditSavedAfterAnAddPetKeepsBoth() throws Exception {
        int owner = clinic().newOwner();
        clinic().newPet(owner, "Leo");
        Owner edit = owners.load(owner); // owner edit, tx 1
        clinic().addPet(owner, "Rex").andExpect(status().isCreated()); // commits
        edit.setCity("Verona");
        owners.save(edit); // tx 2

        assertThat(petsNamed(owner, "Rex")).isEqualTo(1);
        assertThat(petCount(owner)).isEqualTo(2);
        assertThat(ownerColumn(owner, "city")).isEqualTo("Verona");
    }

    /**
     * ...but not the other way round: add-pet saves the whole owner, so when it loaded before the
     * edit and saves after it, it writes the owner's old fields back. In the classic variant this
     * "control" is a lost update (the same mechanism as race 3); the pet itself is still kept.
     */
    @Test
    void control4_anAddPetSavedAfterAnOwnerEditRevertsTheEdit() throws Exception {
        int owner = clinic().newOwner();
        clinic().newPet(owner, "Leo");
        Owner add = owners.load(owner); // add pet, tx 1
        clinic().editOwner(owner, "city", "Verona").andExpect(status().isOk()); // commits
        assertThat(add.getPet("Rex", true)).isNull();
        add.addPet(newPet("Rex"));
        owners.save(add); // tx 2

        assertThat(petsNamed(owner, "Rex")).isEqualTo(1);
        assertThat(petCount(owner)).isEqualTo(2);
        assertThat(ownerColumn(owner, "city")).isEqualTo("Madison"); // the edit: reverted
    }

    private static Visit visit(String description) {
        Visit visit = new Visit();
        visit.setDescription(description);
        return visit;
    }
}
