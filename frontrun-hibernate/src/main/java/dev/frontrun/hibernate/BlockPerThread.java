package dev.frontrun.hibernate;

import dev.frontrun.spi.SchedulingPoints.RepeatableRandom;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Optional;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.id.IntegralDataTypeHolder;
import org.hibernate.id.enhanced.AbstractOptimizer;
import org.hibernate.id.enhanced.AccessCallback;
import org.hibernate.id.enhanced.InitialValueAwareOptimizer;
import org.hibernate.id.enhanced.Optimizer;
import org.hibernate.id.enhanced.OptimizerFactory;
import org.hibernate.id.enhanced.StandardOptimizerDescriptor;
import org.hibernate.sql.ast.tree.expression.Expression;

/**
 * Gives every explored thread its own block of ids inside an execution, as a cluster of JVMs would.
 * The setup gets one too; each block is taken from the sequence by that thread, as a cluster of JVMs sharing the sequence would; elsewhere it is the
 * application's.
 * One block for all threads makes an id depend on which thread asked first, in memory, where Frontrun sees nothing: a
 * thread holds the block's lock while it asks the sequence (a scheduling point), the other waits for the lock and then
 * both run at once, and the execution can no longer be repeated. With a block per thread, the order in which the
 * threads ask the sequence (their {@code nextval} statements) decides the ids, and the exploration explores it.
 */
final class BlockPerThread implements Optimizer {

    private final Optimizer shared;
    private final StandardOptimizerDescriptor kind;
    private final Class<?> returnClass;
    private final long initialValue;

    private BlockPerThread(
            Optimizer shared, StandardOptimizerDescriptor kind, Class<?> returnClass, long initialValue) {
        this.shared = shared;
        this.kind = kind;
        this.returnClass = returnClass;
        this.initialValue = initialValue;
    }

    /** {@code shared} with a block per explored thread, or empty when it keeps no block shared by threads. */
    static Optional<BlockPerThread> of(Optimizer shared) throws ReflectiveOperationException {
        if (!(shared instanceof AbstractOptimizer standard)) {
            return Optional.empty();
        }
        Optional<StandardOptimizerDescriptor> kind = Arrays.stream(StandardOptimizerDescriptor.values())
                .filter(d -> d.getOptimizerClass() == shared.getClass())
                .findFirst();
        if (kind.isEmpty()
                || kind.get() == StandardOptimizerDescriptor.NONE
                || kind.get() == StandardOptimizerDescriptor.POOLED_LOTL) {
            return Optional.empty(); // one nextval per id, or a block per thread already
        }
        long initialValue = -1;
        if (shared instanceof InitialValueAwareOptimizer) {
            Field field = shared.getClass().getDeclaredField("initialValue");
            field.setAccessible(true);
            initialValue = field.getLong(shared);
        }
        return Optional.of(new BlockPerThread(shared, kind.get(), standard.getReturnClass(), initialValue));
    }

    /** The application's own optimizer, used outside executions. */
    Optimizer shared() {
        return shared;
    }

    /** The calling explored thread's own optimizer in the running execution, or the application's. */
    private Optimizer current() {
        return RepeatableRandom.perThread(
                        this,
                        (execution, owner) -> OptimizerFactory.buildOptimizer(
                                kind, returnClass, shared.getIncrementSize(), initialValue))
                .orElse(shared);
    }

    @Override
    public Serializable generate(AccessCallback callback) {
        return current().generate(callback);
    }

    /** The application's block, and inside an execution the calling thread's too. */
    @Override
    public void reset() {
        Optimizer own = current();
        shared.reset();
        if (own != shared) {
            own.reset();
        }
    }

    @Override
    public IntegralDataTypeHolder getLastSourceValue() {
        return current().getLastSourceValue();
    }

    @Override
    public int getIncrementSize() {
        return shared.getIncrementSize();
    }

    @Override
    public boolean applyIncrementSizeToSourceValues() {
        return shared.applyIncrementSizeToSourceValues();
    }

    @Override
    public Expression createLowValueExpression(Expression databaseValue, SessionFactoryImplementor sessionFactory) {
        return shared.createLowValueExpression(databaseValue, sessionFactory);
    }

    @Override
    public int getAdjustment() {
        return shared.getAdjustment();
    }
}
