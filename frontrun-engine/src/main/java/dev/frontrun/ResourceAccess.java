package dev.frontrun;

import java.util.Objects;

/**
 * One access a step will make: a resource id ({@code sql:owners}, {@code sql:owners:(1)},
 * {@code account:1}) and its kind. The unit every source of scheduling points reports.
 */
public record ResourceAccess(String resource, Access kind) {
    public ResourceAccess {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(kind, "kind");
    }

    public static ResourceAccess read(String resource) {
        return new ResourceAccess(resource, Access.READ);
    }

    public static ResourceAccess write(String resource) {
        return new ResourceAccess(resource, Access.WRITE);
    }

    public boolean conflictsWith(ResourceAccess other) {
        return resource.equals(other.resource) && kind.conflictsWith(other.kind);
    }

    @Override
    public String toString() {
        return kind + " " + resource;
    }
}
