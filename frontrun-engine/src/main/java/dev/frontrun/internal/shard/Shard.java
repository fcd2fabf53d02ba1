package dev.frontrun.internal.shard;

/**
 * Which share of every exploration a job explores: shard {@code index} of {@code count} (0-based).
 */
public record Shard(int index, int count) {

    /** The system property naming this job's shard, as {@code i/n}. */
    public static final String PROPERTY = "frontrun.shard";

    public Shard {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("a shard is i/n with 0 <= i < n, got " + index + "/" + count);
        }
    }

    /** Parses {@code i/n}, e.g. {@code 0/3}; blank or null is no sharding (null). */
    public static Shard parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String[] parts = text.trim().split("/");
        try {
            if (parts.length == 2) {
                return new Shard(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(PROPERTY + " must be i/n with 0 <= i < n (e.g. 0/3), got '" + text + "'");
    }

    /** The shard {@code -Dfrontrun.shard} names, or null. */
    public static Shard fromSystemProperty() {
        return parse(System.getProperty(PROPERTY));
    }

    /** The owner of leaf {@code leaf} (0-based, depth-first order of the top levels). */
    boolean owns(int leaf) {
        return leaf % count == index;
    }

    /** The leaves at the split depth worth having: enough for every shard to get about four. */
    int leavesWanted() {
        return 16 * count;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
