package dev.frontrun.internal.shard;

import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.internal.engine.policy.SchedulePolicy;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * One exploration's share in this job: makes its schedule policy, says what the share left to the other
 * shards, and writes the share's report file.
 */
public final class ShardRun {

    /** The system property naming the directory of shard reports (default {@code target/frontrun-shards}). */
    public static final String DIRECTORY_PROPERTY = "frontrun.shardDirectory";

    private final Shard shard;
    private ShardPolicy policy;

    public ShardRun(Shard shard) {
        this.shard = shard;
    }

    /** Where shard reports go unless an exploration says otherwise. */
    public static Path defaultDirectory() {
        String configured = System.getProperty(DIRECTORY_PROPERTY);
        return Path.of(configured == null || configured.isBlank() ? "target/frontrun-shards" : configured);
    }

    /** The policy of the share (made once: an exploration runs one). */
    public SchedulePolicy policy() {
        policy = new ShardPolicy(shard);
        return policy;
    }

    /** The line the result carries under "not explored": the other shards' part, and how to get the whole verdict. */
    public String note() {
        ShardReport.Split split = policy == null ? null : policy.split();
        String which = split == null
                ? ""
                : " (" + split.ownedLeaves() + " of the " + split.leaves()
                        + " leaves of the exploration tree's top " + split.depth() + " level"
                        + (split.depth() == 1 ? "" : "s")
                        + ")";
        return "the other shards' part: this job explored shard " + shard + which
                + "; ShardMerge over every shard's report gives the whole verdict";
    }

    /**
     * Writes the share's report as {@code <id>.shard-<i>-of-<n>.json} in {@code directory}. A second exploration of
     * this JVM under the same id (a test exploring twice) gets {@code <id>-2}, then {@code <id>-3}: the same in every
     * job that runs the tests in the same order.
     */
    public Path write(Result result, String id, Path directory) throws IOException {
        Files.createDirectories(directory);
        String jvm = jvm();
        String unique = id;
        for (int n = 2;
                writtenByThisJvm(directory.resolve(ShardReport.fileName(unique, shard.index(), shard.count())), jvm);
                n++) {
            unique = id + "-" + n;
        }
        ShardReport.Split split = policy == null ? null : policy.split();
        ShardReport.Outcome outcome = new ShardReport.Outcome(
                result.verdict(),
                result.executions(),
                result.exhausted(),
                result.inconclusiveBecause().orElse(null),
                result.failure().map(Failure::summary).orElse(null),
                result.counterexample().map(Schedule::toString).orElse(null),
                result.summary());
        ShardReport report = new ShardReport(
                unique,
                shard.index(),
                shard.count(),
                split == null ? ShardReport.Split.NONE : split,
                outcome,
                jvm,
                policy == null
                        ? List.of()
                        : policy.traceKeys().stream().map(ShardRun::hash).toList());
        Path file = directory.resolve(ShardReport.fileName(unique, shard.index(), shard.count()));
        Files.writeString(file, report.toJson(), StandardCharsets.UTF_8);
        return file;
    }

    private static boolean writtenByThisJvm(Path file, String jvm) {
        if (!Files.exists(file)) {
            return false;
        }
        try {
            return jvm.equals(ShardReport.fromJson(Files.readString(file, StandardCharsets.UTF_8))
                    .jvm());
        } catch (IOException | RuntimeException unreadable) {
            return false; // a stale or broken file from another run: overwritten
        }
    }

    private static String jvm() {
        return ProcessHandle.current().pid() + "@"
                + ManagementFactory.getRuntimeMXBean().getStartTime();
    }

    /** A short, stable name of a trace key (64 bits of its SHA-256): equal traces, equal hashes, in every job. */
    static String hash(String traceKey) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(traceKey.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
