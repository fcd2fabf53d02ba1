package dev.frontrun.demo.petclinic;

import static dev.frontrun.demo.petclinic.PetClinicClient.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/**
 * What every route does, sequentially, in both variants: {@link ClassicRoutesTest} and
 * {@link FixedRoutesTest} run these same tests against their own context.
 */
interface RouteContract {

    PetClinicClient clinic();

    @Test
    default void createsAnOwnerAndShowsIt() throws Exception {
        var created = clinic().createOwner(
                        "firstName",
                        "Ada",
                        "lastName",
                        "Lovelace",
                        "address",
                        "12 St James's Sq.",
                        "city",
                        "London",
                        "telephone",
                        "0123456789");
        int id = read(created, "$.id");
        created.andExpect(status().isCreated())
                .andExpect(header().string("Location", "/owners/" + id))
                .andExpect(jsonPath("$.pets", hasSize(0)));
        clinic().showOwner(id)
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.firstName").value("Ada"))
                .andExpect(jsonPath("$.lastName").value("Lovelace"))
                .andExpect(jsonPath("$.address").value("12 St James's Sq."))
                .andExpect(jsonPath("$.city").value("London"))
                .andExpect(jsonPath("$.telephone").value("0123456789"));
    }

    @Test
    default void rejectsAnInvalidOwner() throws Exception {
        clinic().createOwner("firstName", "Ada", "lastName", "", "address", "x", "city", "y", "telephone", "12345")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors.lastName").exists())
                .andExpect(jsonPath("$.errors.telephone").value("Telephone must be a 10-digit number"));
    }

    @Test
    default void findsOwnersByLastNamePrefix() throws Exception {
        clinic().findOwners("Dav")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[*].firstName", containsInAnyOrder("Betty", "Harold")));
    }

    @Test
    default void showsTheSeededOwnerGeorgeFranklinWithLeo() throws Exception {
        clinic().showOwner(1)
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.firstName").value("George"))
                .andExpect(jsonPath("$.lastName").value("Franklin"))
                .andExpect(jsonPath("$.pets[*].name", hasItem("Leo")));
    }

    @Test
    default void editingOneFieldKeepsTheOthers() throws Exception {
        int owner = clinic().newOwner();
        clinic().editOwner(owner, "city", "Verona")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.city").value("Verona"));
        clinic().ownerForm(owner)
                .andExpect(jsonPath("$.city").value("Verona"))
                .andExpect(jsonPath("$.firstName").value("Jane"))
                .andExpect(jsonPath("$.address").value("1 Main St."))
                .andExpect(jsonPath("$.telephone").value("6085550000"));
    }

    @Test
    default void rejectsAnInvalidEditAndKeepsTheOwner() throws Exception {
        int owner = clinic().newOwner();
        clinic().editOwner(owner, "city", "Verona", "telephone", "not-a-number")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors.telephone").exists());
        clinic().showOwner(owner)
                .andExpect(jsonPath("$.city").value("Madison"))
                .andExpect(jsonPath("$.telephone").value("6085550000"));
    }

    @Test
    default void addsAPet() throws Exception {
        int owner = clinic().newOwner();
        clinic().addPetWith(owner, "name", "Rex", "birthDate", "2019-05-04", "type", "dog")
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.pets[0].name").value("Rex"));
        clinic().showOwner(owner)
                .andExpect(jsonPath("$.pets", hasSize(1)))
                .andExpect(jsonPath("$.pets[0].type").value("dog"))
                .andExpect(jsonPath("$.pets[0].birthDate").value("2019-05-04"));
    }

    @Test
    default void rejectsADuplicatePetNameIgnoringCase() throws Exception {
        int owner = clinic().newOwner();
        clinic().addPet(owner, "Max").andExpect(status().isCreated());
        clinic().addPet(owner, "max")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors.name").value("already exists"));
        clinic().showOwner(owner).andExpect(jsonPath("$.pets", hasSize(1)));
    }

    @Test
    default void allowsTheSamePetNameForAnotherOwner() throws Exception {
        clinic().addPet(clinic().newOwner(), "Max").andExpect(status().isCreated());
        clinic().addPet(clinic().newOwner(), "Max").andExpect(status().isCreated());
    }

    @Test
    default void rejectsAnInvalidPet() throws Exception {
        int owner = clinic().newOwner();
        clinic().addPetWith(
                        owner,
                        "name",
                        "",
                        "type",
                        "unicorn",
                        "birthDate",
                        LocalDate.now().plusDays(1).toString())
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors.name").value("required"))
                .andExpect(jsonPath("$.errors.type").value("invalid"))
                .andExpect(jsonPath("$.errors.birthDate").value("must not be in the future"));
        clinic().addPetWith(owner, "name", "Rex")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors.type").value("required"))
                .andExpect(jsonPath("$.errors.birthDate").value("required"));
        clinic().showOwner(owner).andExpect(jsonPath("$.pets", hasSize(0)));
    }

    @Test
    default void renamesAPet() throws Exception {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Rex");
        clinic().editPet(owner, pet, "name", "Rexy").andExpect(status().isOk());
        clinic().petForm(owner, pet)
                .andExpect(jsonPath("$.name").value("Rexy"))
                .andExpect(jsonPath("$.type").value("cat"))
                .andExpect(jsonPath("$.birthDate").value("2020-01-01"));
    }

    @Test
    default void rejectsRenamingAPetToAnotherPetsName() throws Exception {
        int owner = clinic().newOwner();
        int rex = clinic().newPet(owner, "Rex");
        clinic().newPet(owner, "Max");
        clinic().editPet(owner, rex, "name", "MAX")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors.name").value("already exists"));
        clinic().editPet(owner, rex, "name", "REX").andExpect(status().isOk());
    }

    @Test
    default void addsAVisitDatedTodayByDefault() throws Exception {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Rex");
        clinic().addVisit(owner, pet, "rabies shot")
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.pets[0].visits[0].description").value("rabies shot"))
                .andExpect(jsonPath("$.pets[0].visits[0].date")
                        .value(LocalDate.now().toString()));
        clinic().addVisitWith(owner, pet, "description", "checkup", "date", "2024-02-03")
                .andExpect(status().isCreated());
        clinic().petForm(owner, pet).andExpect(jsonPath("$.visits[*].description", contains("checkup", "rabies shot")));
    }

    @Test
    default void stopsOnlineBookingsAtTheOwnersDailyLimit() throws Exception {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Rex");
        for (int booked = 0; booked < TestRedis.DAILY_LIMIT; booked++) {
            clinic().bookVisitOnline(owner, pet, "checkup " + booked).andExpect(status().isCreated());
        }
        clinic().bookVisitOnline(owner, pet, "one too many").andExpect(status().isTooManyRequests());
        clinic().petForm(owner, pet).andExpect(jsonPath("$.visits", hasSize(TestRedis.DAILY_LIMIT)));
        // booking at the desk is not limited
        clinic().addVisit(owner, pet, "at the desk").andExpect(status().isCreated());
    }

    @Test
    default void rejectsAVisitWithoutDescription() throws Exception {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Rex");
        clinic().addVisit(owner, pet, " ")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors.description").exists());
        clinic().petForm(owner, pet).andExpect(jsonPath("$.visits", hasSize(0)));
    }

    @Test
    default void listsTheVetsWithTheirSpecialties() throws Exception {
        clinic().vets()
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.vetList", hasSize(6)))
                .andExpect(jsonPath(
                        "$.vetList[?(@.lastName == 'Douglas')].specialties[*].name", contains("dentistry", "surgery")));
    }

    @Test
    default void answersNotFoundForUnknownOwnersAndPets() throws Exception {
        int owner = clinic().newOwner();
        clinic().showOwner(999_999).andExpect(status().isNotFound());
        clinic().editOwner(999_999, "city", "x").andExpect(status().isNotFound());
        clinic().addPet(999_999, "Rex").andExpect(status().isNotFound());
        clinic().editPet(owner, 999_999, "name", "x").andExpect(status().isNotFound());
        clinic().addVisit(owner, 999_999, "x").andExpect(status().isNotFound());
        assertThat(owner).isPositive();
    }
}
