/**
 * Byte Buddy rewriting that turns Java synchronization and shared-memory accesses into scheduling points.
 *
 * <h2>{@link MemorySiteVisitor}</h2>
 *
 * <p>A read or write of a non-final field or of an array element, and a call on an atomic or an adder, is
 * preceded by a call of {@code MemoryPoints} with the object (a copy of it from the operand stack) and the
 * resource's name as a constant; calls on a {@code ConcurrentHashMap} (through {@code Map}, {@code ConcurrentMap}
 * or the class) become static calls with the same stack shape, so the map and the key are seen. Objects are named
 * where they are created ({@code MemoryPoints.created}): a constructor right after its superclass's (so objects
 * frameworks make by reflection are named too), and the {@code new} of an array, an atomic or a map here. Which JDK
 * calls are sites is {@code ConcurrentJdkCalls}' concern; whether a field can be shared state (final? a JPA
 * entity's?) is answered from its class hierarchy by {@code FieldOwnerFacts}.
 *
 * <p>Constructors' accesses to their own object's fields and static initializers are left alone: the
 * object or class is not shared yet (and what a static initializer creates lives longer than one
 * execution, so it is not named either). So are the fields of JPA entities, embeddables and mapped
 * superclasses: each transaction works on its own copies, whose shared state is the database (its
 * statements are the steps). So are a coverage agent's probes (JaCoCo's {@code $jacocoData} array, stored into
 * in every method): bookkeeping of the test run, not state of the application.
 *
 * <h2>{@link JavaSyncInstrumentation}</h2>
 *
 * <p>The rewritten classes call {@code SyncPoints}, so only classes whose class loader resolves that
 * very class are instrumented (the application class loader of a test, Spring Boot's test loaders that
 * delegate to it); a class from a loader that cannot see Frontrun is left alone.
 *
 * <p>The set of instrumented packages is JVM-wide state by nature (a class is transformed once), kept
 * here and only ever grown; whether a site is a scheduling point is decided per execution.
 */
package dev.frontrun.internal.instrument;
