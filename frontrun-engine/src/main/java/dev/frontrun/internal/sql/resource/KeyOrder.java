package dev.frontrun.internal.sql.resource;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Lets draws of generated keys commute when the exploration was told their order changes nothing.
 *
 * <p>By default a {@code nextval} writes its sequence and an insert that takes a generated key writes the table's
 * key order ({@code #keys}), so two draws are ordered both ways. Declared in any order, a draw only reads them: two
 * draws commute, while a {@code setval}, which repositions the sequence, still writes it and is ordered against them.
 */
public final class KeyOrder {

    private static final String KEYS = "#keys";

    private KeyOrder() {}

    /** {@code accesses} with the statement's draws of generated keys read, not written. */
    public static List<ResourceAccess> drawsCommuting(List<ResourceAccess> accesses, Footprint footprint) {
        Set<String> drawn = new HashSet<>();
        Set<String> repositioned = new HashSet<>();
        for (RowRef row : footprint.rows()) {
            if (row.id().kind() == ResourceId.Kind.SEQUENCE) {
                (row.repositions() ? repositioned : drawn).add(row.id().render());
            }
        }
        drawn.removeAll(repositioned);
        List<ResourceAccess> out = new ArrayList<>(accesses.size());
        for (ResourceAccess a : accesses) {
            boolean draw = drawn.contains(a.resource()) || a.resource().endsWith(KEYS);
            out.add(draw && a.kind() == Access.WRITE ? ResourceAccess.read(a.resource()) : a);
        }
        return out;
    }
}
