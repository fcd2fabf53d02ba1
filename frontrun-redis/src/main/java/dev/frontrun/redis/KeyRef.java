package dev.frontrun.redis;

import java.util.Arrays;

/**
 * A key of one database: what a command reads or writes, the unit Redis is put back by.
 *
 * @param db  the database number ({@code SELECT})
 * @param key the key's bytes (never changed after construction)
 */
public record KeyRef(int db, byte[] key) {

    /** The key as text: printable UTF-8 as is, other bytes as {@code \xNN}. */
    public String name() {
        return KeyNames.render(key);
    }

    /** The resource the scheduler orders accesses by: {@code redis:<db>:<key>}; a key's expiry is part of it. */
    public String resource() {
        return "redis:" + db + ":" + name();
    }

    /** The resource of the whole keyspace of a database, which keyspace commands read or write. */
    public static String keyspace(int db) {
        return "redis:" + db;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyRef other && other.db == db && Arrays.equals(other.key, key);
    }

    @Override
    public int hashCode() {
        return 31 * db + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return db + ":" + name();
    }
}
