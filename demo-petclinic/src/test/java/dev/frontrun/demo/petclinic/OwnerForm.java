package dev.frontrun.demo.petclinic;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.test.web.servlet.ResultActions;

/**
 * An owner edit form as a browser holds it: every field (and the hidden version) as loaded by
 * {@code GET /owners/{id}/edit}, posted back whole with one field changed.
 */
record OwnerForm(Map<String, String> fields) {

    private static final List<String> NAMES =
            List.of("firstName", "lastName", "address", "city", "telephone", "version");

    static OwnerForm of(ResultActions loaded) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String name : NAMES) {
            Object value = PetClinicClient.read(loaded, "$." + name);
            if (value != null) {
                fields.put(name, value.toString());
            }
        }
        return new OwnerForm(fields);
    }

    /** The form's parameters as name/value pairs, with {@code name} changed to {@code value}. */
    String[] with(String name, String value) {
        Map<String, String> changed = new LinkedHashMap<>(fields);
        changed.put(name, value);
        List<String> params = new ArrayList<>();
        changed.forEach((k, v) -> {
            params.add(k);
            params.add(v);
        });
        return params.toArray(String[]::new);
    }
}
