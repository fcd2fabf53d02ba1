package dev.frontrun.hibernate;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.hibernate.SessionFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.generator.Generator;
import org.hibernate.id.IncrementGenerator;
import org.hibernate.id.OptimizableGenerator;
import org.hibernate.id.enhanced.Optimizer;
import org.hibernate.id.enhanced.PooledLoThreadLocalOptimizer;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Empties the blocks of identifiers Hibernate keeps in memory whenever Frontrun puts the database back. With
 * {@code @GeneratedValue} on PostgreSQL, Hibernate's default, an entity's ids come from a sequence 50 at a time
 * (the pooled optimizer), and the rest of the block waits in the JVM. Frontrun puts the sequences back before
 * every execution, but not that block: the next execution would take its ids from it without asking the
 * sequence (another program than the first execution ran, so schedules would not replay), and once it is used
 * up, the sequence, put back, hands out the same ids again — a duplicate key that no interleaving caused.
 * So before the exploration, before every execution and after the last one, every optimizer is
 * {@linkplain Optimizer#reset() reset}: an execution's first insert of each entity asks the sequence, as the first
 * execution's did (the ids left in the block when the exploration began are skipped, as after a restart). A
 * thread-local optimizer is reset on each explored thread as it starts; the {@code increment} generator (the largest
 * id, read once) starts afresh too. Inside an execution each explored thread takes its ids from a block of its own
 * ({@link BlockPerThread}): with one block for all, an id would depend on which thread asked first, unseen.
 *
 * <p>With Spring, the starter adds it to every exploration; with Hibernate alone,
 * {@code exploration.hook(IdentifierBlocks.of(sessionFactory))}.
 */
public final class IdentifierBlocks implements ExplorationHook {

    /** The optimizers whose blocks every thread shares. */
    private final List<Optimizer> shared = new CopyOnWriteArrayList<>();
    /** The optimizers that keep a block per thread: {@link Optimizer#reset} empties the calling thread's. */
    private final List<Optimizer> perThread = new CopyOnWriteArrayList<>();
    /** The {@code increment} generators, each with the query it reads the largest id with. */
    private final List<Increment> increments = new CopyOnWriteArrayList<>();

    private final Set<Object> known = Collections.newSetFromMap(new IdentityHashMap<>());
    /** the entities whose identifiers cannot be emptied, each with its generator */
    private final List<String> unknown = new CopyOnWriteArrayList<>();

    /**
     * Gives the {@code increment} generator its query back, so it reads the largest id afresh.
     * It reads the largest id with its {@code sql} at its first use, then forgets the query and counts on in memory; it has no {@code reset}, so it starts afresh with its query given back.
     */
    private record Increment(IncrementGenerator generator, Field sql, Field previousValue, String query) {
        void reset() throws IllegalAccessException {
            synchronized (generator) { // as IncrementGenerator.generate
                sql.set(generator, query);
                previousValue.set(generator, null);
            }
        }
    }

    /** The blocks of every entity of {@code sessionFactory}. */
    public static IdentifierBlocks of(SessionFactory sessionFactory) {
        IdentifierBlocks blocks = new IdentifierBlocks();
        blocks.learn(sessionFactory);
        return blocks;
    }

    /** Adds the identifier generators of every entity of {@code sessionFactory}. */
    public synchronized void learn(SessionFactory sessionFactory) {
        sessionFactory
                .unwrap(SessionFactoryImplementor.class)
                .getMappingMetamodel()
                .forEachEntityDescriptor(this::learn);
    }

    private void learn(EntityPersister persister) {
        Generator generator;
        try {
            generator = persister.getGenerator();
        } catch (RuntimeException e) {
            return; // no generator of its own (a subclass shares its root's, which is learned)
        }
        if (generator instanceof OptimizableGenerator optimizable) {
            Optimizer optimizer = optimizable.getOptimizer();
            if (optimizer instanceof BlockPerThread wrapped) {
                optimizer = wrapped.shared(); // another hook wrapped it already
            } else if (optimizer != null && !known.contains(optimizer)) {
                blockPerThread(optimizable, optimizer);
            }
            if (optimizer != null && known.add(optimizer)) {
                (optimizer instanceof PooledLoThreadLocalOptimizer ? perThread : shared).add(optimizer);
            }
        } else if (generator instanceof IncrementGenerator increment && known.add(increment)) {
            learnIncrement(increment, persister.getEntityName());
        }
    }

    /**
     * Gives each explored thread a block of its own inside executions ({@link BlockPerThread}) where possible.
     * That is when the generator keeps its optimizer where it can be replaced (Hibernate's sequence and table
     * generators do); else it is left shared.
     */
    private static void blockPerThread(OptimizableGenerator generator, Optimizer optimizer) {
        try {
            Optional<BlockPerThread> wrapper = BlockPerThread.of(optimizer);
            if (wrapper.isEmpty()) {
                return;
            }
            for (Class<?> c = generator.getClass(); c != Object.class; c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    if (field.getType() == Optimizer.class
                            && !Modifier.isStatic(field.getModifiers())
                            && !Modifier.isFinal(field.getModifiers())) {
                        accessible(field).set(generator, wrapper.get());
                        return;
                    }
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // left shared: the blocks are still emptied with the database, as before
        }
    }

    private void learnIncrement(IncrementGenerator increment, String entity) {
        try {
            Field sql = accessible(IncrementGenerator.class.getDeclaredField("sql"));
            Field previousValue = accessible(IncrementGenerator.class.getDeclaredField("previousValueHolder"));
            if (sql.get(increment) instanceof String query) {
                increments.add(new Increment(increment, sql, previousValue, query));
                return;
            }
            unknown.add(entity + " (its increment generator was used before Frontrun saw it)");
        } catch (ReflectiveOperationException | RuntimeException e) {
            unknown.add(entity + " (increment generator: " + e + ")");
        }
    }

    private static Field accessible(Field f) {
        f.setAccessible(true);
        return f;
    }

    @Override
    public void beforeExploration() throws Exception {
        if (!unknown.isEmpty()) {
            throw new IllegalStateException("Frontrun cannot empty the identifiers Hibernate keeps in memory for "
                    + String.join(", ", unknown) + ": it puts the tables back before every execution, and those"
                    + " identifiers would then be handed out twice. Give these entities a sequence or an identity"
                    + " column (@GeneratedValue)");
        }
        resetShared();
        resetThisThreads();
    }

    /** Also the exploring thread's blocks: the setup and the invariant run there. */
    @Override
    public void beforeExecution(ExecutionContext execution) throws Exception {
        resetShared();
        resetThisThreads();
    }

    @Override
    public void threadStarting(ExecutionContext execution, int thread) {
        resetThisThreads();
    }

    @Override
    public void afterExploration() throws Exception {
        resetShared();
        resetThisThreads();
    }

    @Override
    public ExplorationHook forWorker(int worker) {
        throw new UnsupportedOperationException("Hibernate's blocks of identifiers are shared by every execution in the"
                + " JVM: executions running side by side would take ids from one another's blocks");
    }

    private void resetShared() throws IllegalAccessException {
        shared.forEach(Optimizer::reset);
        for (Increment increment : increments) {
            increment.reset();
        }
    }

    private void resetThisThreads() {
        perThread.forEach(Optimizer::reset);
    }
}
