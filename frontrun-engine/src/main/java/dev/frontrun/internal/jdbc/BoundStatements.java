package dev.frontrun.internal.jdbc;

import dev.frontrun.internal.sql.Classification;
import dev.frontrun.internal.sql.bind.KeyAliases;
import dev.frontrun.internal.sql.syntax.TableName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The analyses of statements already bound to the same parameter values. An exploration's runs repeat the same
 * statements with the same values, and binding one is Frontrun's costliest work per statement: in a test JVM of a few
 * hundred runs it runs interpreted (50–120 µs a statement, BENCHMARKS.md). An analysis is a function of the
 * classification, the values and what its binding asked the generated-key aliases, so it is reused only when each of
 * those questions still gets the same answer: each alias looked up, and each alias handed out (an INSERT whose key
 * the database generates takes the thread's next one, which the reuse then hands out as the binding did). Never
 * reused: an analysis with a value that is not a plain value (an array, a stream, a {@code byte[]}: its contents
 * could change unseen), or made under a classification the classifier has since replaced (the schema changed).
 */
final class BoundStatements {

    /** Beyond this many analyses, all are forgotten, as the classification cache does. */
    static final int MAX_ENTRIES = 4096;

    private static final Set<Class<?>> VALUE_TYPES = Set.of(
            String.class,
            Integer.class,
            Long.class,
            Short.class,
            Byte.class,
            Boolean.class,
            Character.class,
            Double.class,
            Float.class,
            BigDecimal.class,
            BigInteger.class,
            UUID.class);

    /**
     * A statement's text with its values, each value equal only to a value of its own class ({@code 1} is not
     * {@code 1L}, a {@code java.sql.Date} not a {@code java.util.Date} of the same instant). Written out rather than a
     * record: it is hashed and compared at every statement, in code that mostly runs interpreted.
     */
    static final class Key {
        private final String sql;
        /** each value's class, then the value; a date as its time and nanoseconds */
        private final Object[] parts;

        private final int hash;

        private Key(String sql, Object[] parts) {
            this.sql = sql;
            this.parts = parts;
            this.hash = 31 * sql.hashCode() + Arrays.hashCode(parts);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && hash == k.hash && sql.equals(k.sql) && Arrays.equals(parts, k.parts);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** One generated-key alias lookup a binding made, and its answer. */
    private record Lookup(TableName table, String keyTuple, String answer) {}

    /** One generated-key alias a binding was handed out (null where the aliases track none). */
    private record Handout(TableName table, String alias) {}

    private record Bound(
            Classification classification, StatementAnalysis analysis, List<Lookup> lookups, List<Handout> handouts) {}

    /** The parameters of one execution as a key, and as copies the analysis may keep: dates are cloned. */
    record Values(Key key, List<Object> parameters) {}

    private final Map<Key, Bound> bound = new ConcurrentHashMap<>();

    /** The key for {@code parameters} of {@code sql}, or null when one of them is not a plain value. */
    static Values values(String sql, List<Object> parameters) {
        if (sql == null) {
            return null;
        }
        Object[] parts = new Object[2 * parameters.size()];
        List<Object> copies = new ArrayList<>(parameters.size());
        int i = 0;
        for (Object p : parameters) {
            if (p == null
                    || VALUE_TYPES.contains(p.getClass())
                    || p instanceof Enum<?>
                    || p instanceof TemporalAccessor && p.getClass().getName().startsWith("java.time.")) {
                parts[i++] = p == null ? null : p.getClass();
                parts[i++] = p;
                copies.add(p);
            } else if (p instanceof Date d) {
                Date copy = (Date) d.clone();
                parts[i++] = copy.getClass();
                parts[i++] = copy instanceof Timestamp t ? List.of(copy.getTime(), t.getNanos()) : copy.getTime();
                copies.add(copy);
            } else {
                return null;
            }
        }
        return new Values(new Key(sql, parts), Collections.unmodifiableList(copies));
    }

    /**
     * The analysis remembered for {@code values} under {@code classification}, if every question its binding asked
     * {@code aliases} still gets the same answer; then the aliases it handed out are handed out again. Else null, and
     * nothing is handed out.
     */
    StatementAnalysis reuse(Values values, Classification classification, KeyAliases aliases) {
        Bound b = bound.get(values.key());
        if (b == null || b.classification() != classification) {
            return null;
        }
        for (Lookup lookup : b.lookups()) {
            if (!Objects.equals(aliases.aliasOf(lookup.table(), lookup.keyTuple()), lookup.answer())) {
                return null;
            }
        }
        List<Handout> handouts = b.handouts();
        for (int i = 0; i < handouts.size(); i++) {
            Handout h = handouts.get(i);
            int ahead = 0;
            for (int j = 0; j < i; j++) {
                ahead += handouts.get(j).table().equals(h.table()) ? 1 : 0;
            }
            if (!Objects.equals(h.alias(), aliases.peekGeneratedKey(h.table(), ahead))) {
                return null;
            }
        }
        for (Handout h : handouts) {
            aliases.nextGeneratedKey(h.table());
        }
        return b.analysis();
    }

    /** Remembers {@code analysis}, unless its classification is not cached (the next execution classifies again). */
    void remember(Values values, Classification classification, StatementAnalysis analysis, Recording recording) {
        if (!classification.cacheable()) {
            return;
        }
        if (bound.size() >= MAX_ENTRIES) {
            bound.clear();
        }
        bound.put(
                values.key(),
                new Bound(classification, analysis, List.copyOf(recording.lookups), List.copyOf(recording.handouts)));
    }

    /** The aliases a binding sees, recording what it asked and was answered. */
    static final class Recording implements KeyAliases {
        private final KeyAliases target;
        private final List<Lookup> lookups = new ArrayList<>(2);
        private final List<Handout> handouts = new ArrayList<>(1);

        Recording(KeyAliases target) {
            this.target = target;
        }

        @Override
        public String aliasOf(TableName table, String keyTuple) {
            String answer = target.aliasOf(table, keyTuple);
            lookups.add(new Lookup(table, keyTuple, answer));
            return answer;
        }

        @Override
        public String nextGeneratedKey(TableName table) {
            String alias = target.nextGeneratedKey(table);
            handouts.add(new Handout(table, alias));
            return alias;
        }

        @Override
        public String peekGeneratedKey(TableName table, int ahead) {
            return target.peekGeneratedKey(table, ahead);
        }
    }
}
