package dev.frontrun.internal.engine;

import java.util.HashMap;
import java.util.Map;

/** Interns resource names to small ints so that conflict checks compare ints, not strings. */
final class ResourceNumbering {
    private final Map<String, Integer> ids = new HashMap<>();

    int of(String resource) {
        Integer id = ids.get(resource);
        if (id == null) {
            id = ids.size();
            ids.put(resource, id);
        }
        return id;
    }
}
