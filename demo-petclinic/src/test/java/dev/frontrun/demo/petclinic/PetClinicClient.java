package dev.frontrun.demo.petclinic;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.jayway.jsonpath.JsonPath;
import java.io.UnsupportedEncodingException;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/**
 * The PetClinic's routes as MockMvc calls, posting form-encoded parameters like the sample's
 * forms. Parameters are given as name/value pairs: {@code editOwner(1, "city", "Paris")}.
 */
public final class PetClinicClient {

    /** A whole request, for running it on another thread. */
    @FunctionalInterface
    public interface Request {
        ResultActions perform();
    }

    private static final AtomicInteger OWNERS = new AtomicInteger();

    private final MockMvc mvc;

    public PetClinicClient(MockMvc mvc) {
        this.mvc = mvc;
    }

    public ResultActions createOwner(String... params) {
        return perform(form(post("/owners/new"), params));
    }

    /** Creates an owner with a unique last name and no pets; returns its id. */
    public int newOwner() {
        ResultActions created = createOwner(
                "firstName",
                "Jane",
                "lastName",
                "Tester" + OWNERS.incrementAndGet(),
                "address",
                "1 Main St.",
                "city",
                "Madison",
                "telephone",
                "6085550000");
        expect(created, 201);
        return read(created, "$.id");
    }

    public ResultActions findOwners(String lastName) {
        return perform(get("/owners").param("lastName", lastName));
    }

    public ResultActions showOwner(int ownerId) {
        return perform(get("/owners/{ownerId}", ownerId));
    }

    /** The edit form: the owner as stored, with its {@code version} (null when classic). */
    public ResultActions ownerForm(int ownerId) {
        return perform(get("/owners/{ownerId}/edit", ownerId));
    }

    public ResultActions editOwner(int ownerId, String... params) {
        return perform(form(post("/owners/{ownerId}/edit", ownerId), params));
    }

    /** Adds a cat born 2020-01-01 with this name. */
    public ResultActions addPet(int ownerId, String name) {
        return addPetWith(ownerId, "name", name, "birthDate", "2020-01-01", "type", "cat");
    }

    public ResultActions addPetWith(int ownerId, String... params) {
        return perform(form(post("/owners/{ownerId}/pets/new", ownerId), params));
    }

    /** Adds a pet; returns its id. */
    public int newPet(int ownerId, String name) {
        ResultActions added = addPet(ownerId, name);
        expect(added, 201);
        List<Integer> ids = read(added, "$.pets[?(@.name == '" + name + "')].id");
        return ids.get(0);
    }

    public ResultActions petForm(int ownerId, int petId) {
        return perform(get("/owners/{ownerId}/pets/{petId}/edit", ownerId, petId));
    }

    public ResultActions editPet(int ownerId, int petId, String... params) {
        return perform(form(post("/owners/{ownerId}/pets/{petId}/edit", ownerId, petId), params));
    }

    public ResultActions addVisit(int ownerId, int petId, String description) {
        return addVisitWith(ownerId, petId, "description", description);
    }

    /** Books a visit on {@code day}: the day's slot is taken at the reservation service first. */
    public ResultActions bookVisit(int ownerId, int petId, LocalDate day, String description) {
        return perform(form(
                post("/owners/{ownerId}/pets/{petId}/visits/book", ownerId, petId),
                "date",
                day.toString(),
                "description",
                description));
    }

    /** Books a visit online for today: within the owner's daily limit of online bookings (429 beyond it). */
    public ResultActions bookVisitOnline(int ownerId, int petId, String description) {
        return perform(
                form(post("/owners/{ownerId}/pets/{petId}/visits/online", ownerId, petId), "description", description));
    }

    public ResultActions addVisitWith(int ownerId, int petId, String... params) {
        return perform(form(post("/owners/{ownerId}/pets/{petId}/visits/new", ownerId, petId), params));
    }

    public ResultActions vets() {
        return perform(get("/vets"));
    }

    /** A JSON path of the response body. */
    public static <T> T read(ResultActions result, String jsonPath) {
        try {
            return JsonPath.read(result.andReturn().getResponse().getContentAsString(), jsonPath);
        } catch (UnsupportedEncodingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void expect(ResultActions result, int status) {
        try {
            result.andExpect(status().is(status));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static MockHttpServletRequestBuilder form(MockHttpServletRequestBuilder request, String... params) {
        if (params.length % 2 != 0) {
            throw new IllegalArgumentException("parameters come in name/value pairs");
        }
        for (int i = 0; i < params.length; i += 2) {
            request.param(params[i], params[i + 1]);
        }
        return request;
    }

    private ResultActions perform(MockHttpServletRequestBuilder request) {
        try {
            return mvc.perform(request);
        } catch (Exception e) {
            throw new IllegalStateException("request failed: " + e, e);
        }
    }
}
