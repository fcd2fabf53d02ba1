package dev.frontrun.demo.petclinic;

import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;

/** The routes in the classic variant ({@link RouteContract}), plus what only it does. */
class ClassicRoutesTest extends ClassicVariant implements RouteContract {

    @Test
    void formsCarryNoVersionAndAPostedOneIsIgnored() throws Exception {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Rex");
        clinic().ownerForm(owner).andExpect(jsonPath("$.version").value(nullValue()));
        clinic().petForm(owner, pet).andExpect(jsonPath("$.version").value(nullValue()));
        clinic().editOwner(owner, "city", "Verona", "version", "42").andExpect(status().isOk());
        clinic().editPet(owner, pet, "name", "Rexy", "version", "42").andExpect(status().isOk());
    }
}
