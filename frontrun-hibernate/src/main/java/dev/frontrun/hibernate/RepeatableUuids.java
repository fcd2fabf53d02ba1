package dev.frontrun.hibernate;

import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.spi.SchedulingPoints.RepeatableRandom;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.hibernate.SessionFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.Generator;
import org.hibernate.id.uuid.CustomVersionOneStrategy;
import org.hibernate.id.uuid.StandardRandomStrategy;
import org.hibernate.id.uuid.UuidGenerator;
import org.hibernate.id.uuid.UuidValueGenerator;
import org.hibernate.id.uuid.UuidVersion6Strategy;
import org.hibernate.id.uuid.UuidVersion7Strategy;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Makes the UUIDs Hibernate generates repeat in every execution of an exploration. A UUID id or attribute with
 * {@code @GeneratedValue} ({@code GenerationType.UUID}, {@code @UuidGenerator}) gets a key made at random in the JVM
 * at every persist, so every execution would insert, and then read and update, other rows than the last one under
 * the same schedule; the exploration could not tell which orders it has covered and would end inconclusive. Each such
 * generator draws instead from {@link RepeatableRandom} inside an execution (the calling thread's own sequence, the
 * same in every execution of the exploration) and from Hibernate's own strategy everywhere else: the application
 * outside explorations is unchanged. The generators are wrapped when an exploration begins, once; the wrappers keep
 * no state, so parallel workers share them. Hibernate's time-based styles ({@code TIME}, {@code VERSION_6},
 * {@code VERSION_7}) get keys of their own version whose clock is a per-thread counter ({@link TimeOrderedUuids}). A
 * generator of the application's own keeps its values, and an exploration whose steps they change from execution to
 * execution ends inconclusive, saying so.
 *
 * <p>With Spring, the starter adds it to every exploration; with Hibernate alone,
 * {@code exploration.hook(RepeatableUuids.of(sessionFactory))}.
 */
public final class RepeatableUuids implements ExplorationHook {

    private final List<SessionFactory> factories = new CopyOnWriteArrayList<>();

    /**
     * Inside an execution the thread's repeatable sequence, elsewhere Hibernate's own strategy.
     * {@code version} 4 for
     * random keys, 1, 6 or 7 for time-based ones (their clock a per-thread counter, see {@link TimeOrderedUuids}).
     */
    private record Repeatable(UuidValueGenerator hibernates, int version) implements UuidValueGenerator {
        @Override
        public UUID generateUuid(SharedSessionContractImplementor session) {
            Optional<UUID> random = RepeatableRandom.nextUuid();
            if (random.isEmpty()) {
                return hibernates.generateUuid(session);
            }
            if (version == 4) {
                return random.get();
            }
            long tick = RepeatableRandom.perThread(TICKS, (execution, owner) -> new AtomicLong())
                    .orElseThrow()
                    .getAndIncrement();
            return TimeOrderedUuids.of(version, tick, random.get());
        }
    }

    /** The key of each thread's clock of time-based keys in an execution. */
    private static final Object TICKS = new Object();

    /** The version of the UUIDs Hibernate's {@code strategy} makes, if it is one of its own; 0 otherwise. */
    private static int versionOf(UuidValueGenerator strategy) {
        if (strategy instanceof StandardRandomStrategy) {
            return 4;
        }
        if (strategy instanceof CustomVersionOneStrategy) {
            return 1;
        }
        if (strategy instanceof UuidVersion6Strategy) {
            return 6;
        }
        return strategy instanceof UuidVersion7Strategy ? 7 : 0;
    }

    /** The UUID generators of every entity of {@code sessionFactory}. */
    public static RepeatableUuids of(SessionFactory sessionFactory) {
        RepeatableUuids uuids = new RepeatableUuids();
        uuids.learn(sessionFactory);
        return uuids;
    }

    /** Adds the UUID generators of every entity of {@code sessionFactory}, wrapped when the next exploration begins. */
    public void learn(SessionFactory sessionFactory) {
        factories.add(sessionFactory);
    }

    @Override
    public synchronized void beforeExploration() throws Exception {
        List<String> refused = new ArrayList<>();
        for (SessionFactory factory : factories) {
            factory.unwrap(SessionFactoryImplementor.class)
                    .getMappingMetamodel()
                    .forEachEntityDescriptor(persister -> wrapAll(persister, refused));
        }
        if (!refused.isEmpty()) {
            throw new IllegalStateException("Frontrun cannot make the UUIDs Hibernate generates for "
                    + String.join(", ", refused) + " repeat from execution to execution: every execution would insert"
                    + " other rows, and no verdict could be given");
        }
    }

    @Override
    public ExplorationHook forWorker(int worker) {
        return this; // stateless wrappers: a worker's executions draw from their own execution's sequences
    }

    private void wrapAll(EntityPersister persister, List<String> refused) {
        Generator id;
        try {
            id = persister.getGenerator();
        } catch (RuntimeException e) {
            id = null; // no generator of its own (a subclass shares its root's)
        }
        wrap(id, persister.getEntityName(), refused);
        Generator[] attributes = persister.getGenerators();
        if (attributes != null) {
            for (Generator generator : attributes) {
                wrap(generator, persister.getEntityName(), refused);
            }
        }
    }

    private void wrap(Generator generator, String entity, List<String> refused) {
        // a wrapped one is a Repeatable already; the application's own strategy is not made to repeat (see the class)
        if (!(generator instanceof UuidGenerator uuids) || versionOf(uuids.getValueGenerator()) == 0) {
            return;
        }
        try {
            Field field = UuidGenerator.class.getDeclaredField("generator");
            field.setAccessible(true);
            field.set(uuids, new Repeatable(uuids.getValueGenerator(), versionOf(uuids.getValueGenerator())));
        } catch (ReflectiveOperationException | RuntimeException e) {
            refused.add(entity + " (" + e + ")");
        }
    }
}
