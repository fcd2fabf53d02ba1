package dev.frontrun.redis;

import java.util.List;
import java.util.Set;

/**
 * What one command does to the data, as the table reads it from the command's name and arguments. The keys it reads
 * and writes, the databases whose whole keyspace it reads or writes, the other shared things it touches (pub/sub
 * channels, the script and function caches), and what it does to the connection's own state.
 *
 * @param reads          keys read and not written
 * @param writes         keys written (and perhaps read: a write is ordered against everything on the key)
 * @param keyspaceReads  databases whose set of keys the command reads as a whole ({@code KEYS}, {@code SCAN})
 * @param keyspaceWrites databases the command may change anywhere ({@code FLUSHDB}, and any command the table does
 *                       not know: coarser, never finer)
 * @param otherReads     other resources read ({@code redis:channel:<name>}, {@code redis:script:<sha1>})
 * @param otherWrites    other resources written
 * @param control        what the command does to its connection (a transaction, a watch, the selected database)
 * @param coarse         whether the table does not know the command and takes it for a write of the whole keyspace
 */
public record Effect(
        List<KeyRef> reads,
        List<KeyRef> writes,
        Set<Integer> keyspaceReads,
        Set<Integer> keyspaceWrites,
        List<String> otherReads,
        List<String> otherWrites,
        Control control,
        boolean coarse) {

    /** What a command does to the state of its connection, beyond the data. */
    public enum Control {
        NONE,
        SELECT,
        MULTI,
        EXEC,
        DISCARD,
        WATCH,
        UNWATCH,
        RESET
    }

    public Effect {
        reads = List.copyOf(reads);
        writes = List.copyOf(writes);
        keyspaceReads = Set.copyOf(keyspaceReads);
        keyspaceWrites = Set.copyOf(keyspaceWrites);
        otherReads = List.copyOf(otherReads);
        otherWrites = List.copyOf(otherWrites);
    }

    /** Whether the command touches no shared data at all (a {@code PING}, a {@code CLIENT SETNAME}). */
    public boolean touchesNothing() {
        return reads.isEmpty()
                && writes.isEmpty()
                && keyspaceReads.isEmpty()
                && keyspaceWrites.isEmpty()
                && otherReads.isEmpty()
                && otherWrites.isEmpty();
    }

    /** Whether the command may change data (what a restore must put back). */
    public boolean changesData() {
        return !writes.isEmpty() || !keyspaceWrites.isEmpty();
    }
}
