package dev.frontrun.internal.instrument;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isNative;
import static net.bytebuddy.matcher.ElementMatchers.isSynchronized;
import static net.bytebuddy.matcher.ElementMatchers.isTypeInitializer;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;

import dev.frontrun.internal.engine.sync.SyncPoints;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.Lock;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.utility.JavaModule;

/**
 * Instruments the classes of the packages an exploration names, once per JVM. Byte Buddy's agent
 * attaches to the running JVM (no {@code -javaagent} flag), a class file transformer rewrites the
 * synchronization sites (and {@code UUID.randomUUID()} calls: {@link RandomSiteVisitor}) of matching classes as
 * they load, and classes already loaded are
 * retransformed (with their parameter names put back where the JDK drops them: {@link ParameterNamesRestored}).
 * Static initializers are marked so what they run is no scheduling point ({@link ClassInitializerAdvice}).
 * Nothing else is touched: Frontrun's own classes, the JDK and any package not named
 * stay as they are, so framework internals do not multiply the traces.
 *
 * <p>Design notes: see the package documentation.
 */
public final class JavaSyncInstrumentation {

    private static final Set<String> INSTRUMENTED = new HashSet<>();
    private static final Set<String> COMMENT_MARKERS = new HashSet<>();
    /** Classes of instrumented packages whose transformation failed, with why: never silently uninstrumented. */
    private static final Map<String, String> FAILED = new TreeMap<>();

    private static Instrumentation instrumentation;

    private JavaSyncInstrumentation() {}

    /** Makes sure the classes under {@code packagePrefixes} are instrumented; cheap when they already are. */
    public static synchronized void ensure(List<String> packagePrefixes) {
        List<String> fresh = new ArrayList<>();
        for (String prefix : packagePrefixes) {
            String normalized = normalize(prefix);
            if (covered(normalized)) {
                continue;
            }
            fresh.add(normalized);
        }
        if (fresh.isEmpty()) {
            return;
        }
        if (instrumentation == null) {
            try {
                instrumentation = ByteBuddyAgent.install();
            } catch (RuntimeException | LinkageError e) {
                throw new IllegalStateException(
                        "Frontrun could not attach its instrumentation agent to this JVM"
                                + " (on JDK 21+ allow it with -XX:+EnableDynamicAgentLoading; a JRE without the attach API"
                                + " cannot instrument): " + e,
                        e);
            }
            openLocksPackage(instrumentation);
        }
        transformer(fresh).installOn(instrumentation);
        INSTRUMENTED.addAll(fresh);
    }

    /**
     * Lets the engine read which lock a read-write lock view or a condition belongs to (private fields of
     * {@code java.util.concurrent.locks}, named nowhere in its public API); nothing else is opened.
     */
    private static void openLocksPackage(Instrumentation instrumentation) {
        Module base = Lock.class.getModule();
        Module frontrun = SyncPoints.class.getModule();
        String locks = "java.util.concurrent.locks";
        if (instrumentation.isModifiableModule(base) && !base.isOpen(locks, frontrun)) {
            instrumentation.redefineModule(
                    base, Set.of(), Map.of(), Map.of(locks, Set.of(frontrun)), Set.of(), Map.of());
        }
    }

    private static String normalize(String prefix) {
        String p = prefix.trim();
        if (p.isEmpty()) {
            throw new IllegalArgumentException("an empty package prefix would instrument every class");
        }
        return p.endsWith(".") ? p : p + ".";
    }

    private static boolean covered(String prefix) {
        for (String done : INSTRUMENTED) {
            if (prefix.startsWith(done)) {
                return true;
            }
        }
        return false;
    }

    private static AgentBuilder transformer(List<String> prefixes) {
        return new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                // described from class files, never by reflection on a loaded class: reflection loads the classes its
                // signatures name, inside the transformation, where Byte Buddy's circularity lock leaves them as they
                // are
                .with(AgentBuilder.DescriptionStrategy.Default.POOL_ONLY)
                .with(new FailureRecorder())
                .ignore((type, loader, module, redefined, domain) ->
                        type.isSynthetic() || !inScope(type, prefixes) || !seesFrontrun(loader))
                .type((type, loader, module, redefined, domain) -> inScope(type, prefixes) && seesFrontrun(loader))
                .transform((builder, type, loader, module, domain) -> builder.visit(
                                Advice.to(SynchronizedMethodAdvice.class)
                                        .on(isSynchronized().and(not(isAbstract()))))
                        .visit(Advice.to(ClassInitializerAdvice.class).on(isTypeInitializer()))
                        .visit(sites(type))
                        .visit(ParameterNamesRestored.of(type, loader)));
    }

    /** Records the classes whose transformation failed, for every exploration instrumenting their package to say so. */
    private static final class FailureRecorder extends AgentBuilder.Listener.Adapter {
        @Override
        public void onError(
                String typeName, ClassLoader classLoader, JavaModule module, boolean loaded, Throwable throwable) {
            failed(typeName, String.valueOf(throwable));
        }
    }

    private static synchronized void failed(String className, String why) {
        FAILED.put(className, why);
    }

    /**
     * The note an exploration instrumenting {@code packagePrefixes} carries when classes there could not be
     * instrumented. Their synchronization and shared memory are no scheduling points, so no HOLDS covers them.
     */
    public static synchronized Optional<String> notInstrumented(List<String> packagePrefixes) {
        List<String> prefixes =
                packagePrefixes.stream().map(JavaSyncInstrumentation::normalize).toList();
        List<String> classes = FAILED.entrySet().stream()
                .filter(failed -> prefixes.stream().anyMatch(failed.getKey()::startsWith))
                .map(failed -> failed.getKey() + " (" + failed.getValue() + ")")
                .toList();
        return classes.isEmpty()
                ? Optional.empty()
                : Optional.of("Java synchronization and shared memory of "
                        + classes.size() + (classes.size() == 1 ? " class" : " classes")
                        + " that could not be instrumented: "
                        + String.join("; ", classes));
    }

    /**
     * Rewrites every method's synchronization, shared-memory, marker and random-UUID sites, but those of methods
     * compilers and agents add for their own bookkeeping, named with a leading {@code $} ({@code $values},
     * {@code $jacocoInit}, {@code $deserializeLambda$}, {@code $$_hibernate_…}).
     */
    private static AsmVisitorWrapper sites(TypeDescription type) {
        Map<Integer, List<String>> markers = SourceMarkers.of(type.getName());
        markers.values().forEach(JavaSyncInstrumentation::recordCommentMarkers);
        return new AsmVisitorWrapper.ForDeclaredMethods()
                .writerFlags(ClassWriter.COMPUTE_MAXS)
                .invokable(
                        not(isAbstract()).and(not(isNative())).and(not(nameStartsWith("$"))),
                        (t, method, visitor, context, pool, writerFlags, readerFlags) ->
                                new SyncSiteVisitor(new MemorySiteVisitor(
                                        new RandomSiteVisitor(
                                                markers.isEmpty() ? visitor : new MarkerSiteVisitor(visitor, markers)),
                                        pool,
                                        t.getInternalName(),
                                        superName(t),
                                        method.getInternalName())));
    }

    private static String superName(TypeDescription type) {
        return type.getSuperClass() == null
                ? null
                : type.getSuperClass().asErasure().getInternalName();
    }

    private static synchronized void recordCommentMarkers(Collection<String> names) {
        COMMENT_MARKERS.addAll(names);
    }

    /** The names of the {@code // frontrun:} comment markers of the classes instrumented so far. */
    public static synchronized Set<String> commentMarkers() {
        return Set.copyOf(COMMENT_MARKERS);
    }

    private static boolean inScope(TypeDescription type, List<String> prefixes) {
        String name = type.getName();
        String pkg = type.getPackage() == null ? "" : type.getPackage().getName();
        if (name.startsWith("dev.frontrun.internal.")
                || name.startsWith("dev.frontrun.shaded.")
                || pkg.equals("dev.frontrun")
                || pkg.equals("dev.frontrun.spi")
                || pkg.equals("dev.frontrun.jdbc")) {
            return false; // Frontrun itself
        }
        if (generated(name)) {
            return false;
        }
        for (String prefix : prefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a class is one a framework generated in the application's package, named as it names them. Spring's CGLIB
     * proxies ({@code $$}), Hibernate's proxies, access optimizers and instantiators ({@code Wallet$HibernateProxy…},
     * {@code $HibernateAccessOptimizer…}, {@code $HibernateInstantiator…}), Spring Data's property accessors and
     * instantiators ({@code Wallet_Accessor_k2m3}, {@code _Instantiator_}), Byte Buddy's default names
     * ({@code $ByteBuddy$}). Framework plumbing: an access optimizer copies each transaction's own entity state through
     * arrays, and instrumented, its array accesses were steps on one shared resource per array type.
     */
    private static boolean generated(String name) {
        return name.contains("$$")
                || name.contains("$Hibernate")
                || name.contains("$ByteBuddy$")
                || name.contains("_Accessor_")
                || name.contains("_Instantiator_");
    }

    private static boolean seesFrontrun(ClassLoader loader) {
        if (loader == null) {
            return false; // the bootstrap loader: the JDK itself
        }
        try {
            return Class.forName(SyncPoints.class.getName(), false, loader) == SyncPoints.class;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** For the starter's cost note and the tests: the package prefixes instrumented in this JVM. */
    public static synchronized Set<String> instrumentedPrefixes() {
        return Set.copyOf(INSTRUMENTED);
    }
}
