package dev.frontrun.internal.instrument;

import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.pool.TypePool;

/** Answers from a field owner's class hierarchy whether its field can be shared mutable state. */
final class FieldOwnerFacts {

    private static final Set<String> PERSISTENT = Set.of(
            "jakarta.persistence.Entity",
            "jakarta.persistence.Embeddable",
            "jakarta.persistence.MappedSuperclass",
            "javax.persistence.Entity",
            "javax.persistence.Embeddable",
            "javax.persistence.MappedSuperclass");

    private final TypePool pool;

    FieldOwnerFacts(TypePool pool) {
        this.pool = pool;
    }

    /** Whether {@code owner} (or a superclass) is a JPA entity, embeddable or mapped superclass. */
    boolean isPersistent(String owner) {
        return firstInHierarchy(
                        owner,
                        type -> type.getDeclaredAnnotations().stream()
                                        .anyMatch(annotation -> PERSISTENT.contains(
                                                annotation.getAnnotationType().getName()))
                                ? true
                                : null)
                .orElse(false);
    }

    /** Whether the field is final (then it is not shared mutable state); unknown fields count as not final. */
    boolean isFinal(String owner, String name) {
        return firstInHierarchy(owner, type -> {
                    FieldList<FieldDescription.InDefinedShape> fields =
                            type.getDeclaredFields().filter(net.bytebuddy.matcher.ElementMatchers.named(name));
                    return fields.isEmpty() ? null : fields.getOnly().isFinal();
                })
                .orElse(false);
    }

    /**
     * The first non-null answer of {@code ask} walking from {@code owner} up its superclasses; empty when
     * none answers or the hierarchy cannot be resolved (then the callers assume the common case).
     */
    private <T> Optional<T> firstInHierarchy(String owner, Function<TypeDescription, T> ask) {
        TypePool.Resolution resolution = pool.describe(owner.replace('/', '.'));
        if (!resolution.isResolved()) {
            return Optional.empty();
        }
        try {
            for (TypeDescription type = resolution.resolve();
                    type != null;
                    type = type.getSuperClass() == null
                            ? null
                            : type.getSuperClass().asErasure()) {
                T answer = ask.apply(type);
                if (answer != null) {
                    return Optional.of(answer);
                }
            }
        } catch (RuntimeException unresolvable) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
