package dev.frontrun.bench;

import dev.frontrun.Frontrun;
import dev.frontrun.bench.sites.Sites;
import dev.frontrun.internal.instrument.JavaSyncInstrumentation;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What an instrumented site costs outside an exploration: the same methods of {@link Sites}, in a JVM
 * where their package is instrumented ({@code instrumented=true}) and in one where it is not. Each
 * parameter value runs in its own fork, so the JIT sees only one version of the class. Run (from the
 * repository root, after building the engine's classes and test classes):
 * <pre>
 * ./mvnw -B -q dependency:build-classpath -pl frontrun-engine -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test
 * java -cp frontrun-engine/target/classes:frontrun-engine/target/test-classes:$(cat /tmp/cp.txt) \
 *     org.openjdk.jmh.Main InstrumentationBenchmark
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class InstrumentationBenchmark {

    @Param({"false", "true"})
    public boolean instrumented;

    private Sites sites;

    @Setup
    public void setUp() {
        if (instrumented) {
            JavaSyncInstrumentation.ensure(List.of("dev.frontrun.bench.sites"));
            // proof that the sites measured are the instrumented ones: two increments of a field, 4 traces
            int executions = Frontrun.explore(Sites::new)
                    .instrument("dev.frontrun.bench.sites")
                    .thread("t", Sites::fieldIncrement)
                    .thread("u", Sites::fieldIncrement)
                    .reportDirectory(null)
                    .run()
                    .executions();
            if (executions != 4) {
                throw new IllegalStateException("Sites is not instrumented: " + executions + " executions");
            }
        }
        sites = new Sites();
    }

    @Benchmark
    public int synchronizedBlock() {
        return sites.synchronizedBlock();
    }

    @Benchmark
    public int synchronizedMethod() {
        return sites.synchronizedMethod();
    }

    @Benchmark
    public int fieldIncrement() {
        return sites.fieldIncrement();
    }

    @Benchmark
    public Integer mapGet() {
        return sites.mapGet();
    }

    @Benchmark
    public int atomicIncrement() {
        return sites.atomicIncrement();
    }

    @Benchmark
    public int arrayIncrement() {
        return sites.arrayIncrement();
    }

    @Benchmark
    public Object newObject() {
        return sites.newObject();
    }

    @Benchmark
    public int[] newArray() {
        return sites.newArray();
    }
}
