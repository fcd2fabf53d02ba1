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

    private KeyOrder() {}

    /** {@code accesses} with the statement's draws of generated keys read, not written (the same list if it has none). */
    public static List<ResourceAccess> drawsCommuting(List<ResourceAccess> accesses, Footprint footprint) {
        Set<String> drawn = drawnSequences(footprint);
        List<ResourceAccess> out = null;
        for (int i = 0; i < accesses.size(); i++) {
            ResourceAccess a = accesses.get(i);
            if (a.kind() == Access.WRITE && (drawn.contains(a.resource()) || ResourceId.isKeyOrder(a.resource()))) {
                if (out == null) {
                    out = new ArrayList<>(accesses);
                }
                out.set(i, ResourceAccess.read(a.resource()));
            }
        }
        return out == null ? accesses : out;
    }

    /** The rendered sequences the statement draws from and does not also reposition. */
    private static Set<String> drawnSequences(Footprint footprint) {
        Set<String> drawn = new HashSet<>();
        Set<String> repositioned = new HashSet<>();
        for (RowRef row : footprint.rows()) {
            if (row.id().kind() == ResourceId.Kind.SEQUENCE) {
                (row.repositions() ? repositioned : drawn).add(row.id().render());
            }
        }
        drawn.removeAll(repositioned);
        return drawn;
    }
}
