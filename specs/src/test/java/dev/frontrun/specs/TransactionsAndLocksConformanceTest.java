package dev.frontrun.specs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.specs.conformance.ConformanceCheck;
import dev.frontrun.specs.conformance.ConformanceCheck.Check;
import dev.frontrun.specs.conformance.ConformanceCheck.Known;
import dev.frontrun.specs.conformance.EngineRules;
import dev.frontrun.specs.conformance.StateGraph;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The Java model follows TransactionsAndLocks.tla: TLC explores each conformance configuration and
 * dumps every state and transition; {@link ConformanceCheck} holds the engine's lock predictions,
 * transaction state, deadlock rule and conflict table against each of them.
 *
 * <p>The disagreements found are pinned by kind and number ({@link Known}; the README says what
 * each means): a change in either model moves a number and fails here. Anything no known kind
 * explains fails at once. The last tests plant one wrong Java-side rule each and show the check
 * catches it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TransactionsAndLocksConformanceTest {

    private static final String LOCK_MODES = "TransactionsAndLocks_Conformance";
    private static final String SAVEPOINTS = "TransactionsAndLocks_ConformanceSavepoints";
    private static final String QUEUE = "TransactionsAndLocks_ConformanceQueue";

    /** Each configuration's graph, explored once for all the tests of this class. */
    private final Map<String, StateGraph> graphs = new ConcurrentHashMap<>();

    private StateGraph graph(String config) {
        return graphs.computeIfAbsent(config, c -> {
            Tlc.Outcome o = Tlc.checkAndDumpGraph("TransactionsAndLocks", c);
            assertThat(o.noError()).as(o.toString()).isTrue();
            StateGraph g = StateGraph.read(Tlc.graphFile(c));
            assertThat(g.states()).as("states in the dump of " + c).hasSize((int) o.distinct());
            return g;
        });
    }

    private ConformanceCheck.Result check(String config, EngineRules rules) {
        long start = System.nanoTime();
        ConformanceCheck.Result r = ConformanceCheck.run(graph(config), rules);
        System.out.printf("conformance %s (%d ms): %s%n", config, (System.nanoTime() - start) / 1_000_000, r);
        return r;
    }

    @Test
    void lockModesSnapshotsAndDeadlocksFollowTheSpec() {
        ConformanceCheck.Result r = check(LOCK_MODES, new EngineRules());

        assertThat(r.unexpected()).as(r.toString()).isEmpty();
        assertThat(r.states()).isEqualTo(30902);
        assertEveryCheckRan(r);
        assertThat(r.deadlocked()).as("states with a wait-for cycle").isPositive();
        assertThat(r.nonCommuting()).as("non-commuting pairs").isPositive();
        assertThat(r.found(Check.WAIT_OUTCOME, Known.WAIT_PREDICTED_FOR_IMMEDIATE_FAILURE))
                .as(r.toString())
                .isEqualTo(336);
        assertThat(r.found(Check.LOCK_HOLDERS, Known.ERROR_RELEASES_AT_ONCE))
                .as(r.toString())
                .as("a failed statement tells what its error released")
                .isZero();
        assertThat(r.found(Check.LOCK_HOLDERS, Known.SKIP_LOCKED_LOCKS_FREE_ROW))
                .as(r.toString())
                .isEqualTo(1076);
        assertThat(r.found(Check.CONFLICT, Known.ROLLBACK_RELEASE_WITHOUT_CONFLICT))
                .as(r.toString())
                .as("a rollback announces a write of every lock it releases")
                .isZero();
        assertThat(r.found(Check.CONFLICT, Known.ERROR_RELEASE_WITHOUT_CONFLICT))
                .as(r.toString())
                .isZero();
    }

    @Test
    void savepointsFollowTheSpec() {
        ConformanceCheck.Result r = check(SAVEPOINTS, new EngineRules());

        assertThat(r.unexpected()).as(r.toString()).isEmpty();
        assertThat(r.states()).isEqualTo(8548);
        assertEveryCheckRan(r);
        assertThat(r.found(Check.WAIT_OUTCOME, Known.WAIT_PREDICTED_FOR_IMMEDIATE_FAILURE))
                .as(r.toString())
                .isEqualTo(240);
        assertThat(r.found(Check.LOCK_HOLDERS, Known.ERROR_RELEASES_AT_ONCE))
                .as(r.toString())
                .as("a failed statement tells what its error released")
                .isZero();
        assertThat(r.found(Check.CONFLICT, Known.ROLLBACK_RELEASE_WITHOUT_CONFLICT))
                .as(r.toString())
                .as("a rollback announces a write of every lock it releases")
                .isZero();
        assertThat(r.found(Check.CONFLICT, Known.ERROR_RELEASE_WITHOUT_CONFLICT))
                .as(r.toString())
                .isZero();
    }

    @Test
    void aReleasedLockGoesToTheFirstInLine() {
        ConformanceCheck.Result r = check(QUEUE, new EngineRules());

        assertThat(r.unexpected()).as(r.toString()).isEmpty();
        assertThat(r.states()).isEqualTo(5048);
        assertEveryCheckRan(r);
        assertThat(r.found(Check.WAIT_OUTCOME, Known.WAIT_PREDICTED_FOR_IMMEDIATE_FAILURE))
                .as(r.toString())
                .isEqualTo(342);
        assertThat(r.found(Check.LOCK_HOLDERS, Known.ERROR_RELEASES_AT_ONCE))
                .as(r.toString())
                .as("a failed statement tells what its error released")
                .isZero();
        assertThat(r.found(Check.CONFLICT, Known.ROLLBACK_RELEASE_WITHOUT_CONFLICT))
                .as(r.toString())
                .as("a rollback announces a write of every lock it releases")
                .isZero();
        assertThat(r.found(Check.CONFLICT, Known.ERROR_RELEASE_WITHOUT_CONFLICT))
                .as(r.toString())
                .isZero();
    }

    private static void assertEveryCheckRan(ConformanceCheck.Result r) {
        for (Check c : Check.values()) {
            assertThat(r.compared(c)).as(c + " in " + r).isPositive();
        }
    }

    // ------------------------------------------------ deliberately wrong Java-side rules

    @Test
    void aRegistryThatForgetsWaitersIsCaught() {
        ConformanceCheck.Result r = check(QUEUE, new EngineRules() {
            @Override
            public LockTable newLockTable() {
                LockTable real = super.newLockTable();
                return new DelegatingLockTable(real) {
                    @Override
                    public void take(int thread, Set<String> locks) {
                        for (String lock : locks) {
                            if (!real.wouldWait(thread, Set.of(lock))) {
                                real.take(thread, Set.of(lock)); // a held lock is not queued for
                            }
                        }
                    }
                };
            }
        });

        assertThat(r.found(Check.LOCK_HOLDERS, null)).as(r.toString()).isPositive();
    }

    @Test
    void theOldRuleThatForbidsAPredictedWaitIsCaught() {
        ConformanceCheck.Result r = check(QUEUE, new EngineRules() {
            @Override
            public boolean runnerEnables(boolean atPoint, boolean blocked, boolean predictedWait) {
                return atPoint && !blocked && !predictedWait;
            }
        });

        assertThat(r.found(Check.NEVER_FORBIDDEN, null)).as(r.toString()).isPositive();
    }

    @Test
    void aCycleRuleThatSeesACycleInTwoWaitersIsCaught() {
        ConformanceCheck.Result r = check(QUEUE, new EngineRules() {
            @Override
            public boolean waitForCycle(boolean[] blocked, List<List<String>> holders, List<String> names) {
                int waiting = 0;
                for (boolean b : blocked) {
                    waiting += b ? 1 : 0;
                }
                return waiting >= 2;
            }
        });

        assertThat(r.found(Check.DEADLOCK, null)).as(r.toString()).isPositive();
    }

    @Test
    void aRollbackToSavepointThatReleasesEveryLockIsCaught() {
        ConformanceCheck.Result r = check(SAVEPOINTS, new EngineRules() {
            @Override
            public TxState newTransaction(boolean repeatableRead) {
                TxState real = super.newTransaction(repeatableRead);
                return new DelegatingTxState(real) {
                    @Override
                    public Set<String> rollbackTo(String name) {
                        return real.locks();
                    }

                    @Override
                    public Set<String> locksTakenAfter(String name) {
                        return real.locks();
                    }
                };
            }
        });

        assertThat(r.found(Check.RELEASED_LOCKS, null)).as(r.toString()).isPositive();
    }

    @Test
    void aSnapshotAtEveryReadCommittedStatementIsCaught() {
        ConformanceCheck.Result r = check(LOCK_MODES, new EngineRules() {
            @Override
            public TxState newTransaction(boolean repeatableRead) {
                return new DelegatingTxState(super.newTransaction(repeatableRead)) {
                    @Override
                    public boolean takesTransactionSnapshot(boolean readsData) {
                        return readsData;
                    }
                };
            }
        });

        assertThat(r.found(Check.SNAPSHOT, null)).as(r.toString()).isPositive();
    }

    @Test
    void aSnapshotReadThatConflictsWithNoCommitIsCaught() {
        ConformanceCheck.Result r = check(LOCK_MODES, new EngineRules() {
            @Override
            public ResourceAccess snapshotRead() {
                return new ResourceAccess("sql:*", Access.WEAK_READ); // conflicts only with strong writes
            }
        });

        assertThat(r.found(Check.CONFLICT, null)).as(r.toString()).isPositive();
    }

    /** Passes every call on; tests override the one they break. */
    private static class DelegatingLockTable implements EngineRules.LockTable {
        private final EngineRules.LockTable real;

        DelegatingLockTable(EngineRules.LockTable real) {
            this.real = real;
        }

        @Override
        public boolean wouldWait(int thread, Set<String> locks) {
            return real.wouldWait(thread, locks);
        }

        @Override
        public void take(int thread, Set<String> locks) {
            real.take(thread, locks);
        }

        @Override
        public void release(int thread, Set<String> locks) {
            real.release(thread, locks);
        }

        @Override
        public Map<String, List<Integer>> lines(Collection<String> locks, int threads) {
            return real.lines(locks, threads);
        }
    }

    /** Passes every call on; tests override the one they break. */
    private static class DelegatingTxState implements EngineRules.TxState {
        private final EngineRules.TxState real;

        DelegatingTxState(EngineRules.TxState real) {
            this.real = real;
        }

        @Override
        public boolean takesTransactionSnapshot(boolean readsData) {
            return real.takesTransactionSnapshot(readsData);
        }

        @Override
        public void ran(
                List<ResourceAccess> accesses, List<ResourceAccess> undone, Set<String> locks, boolean readsData) {
            real.ran(accesses, undone, locks, readsData);
        }

        @Override
        public void abort() {
            real.abort();
        }

        @Override
        public void savepoint(String name) {
            real.savepoint(name);
        }

        @Override
        public Set<String> rollbackTo(String name) {
            return real.rollbackTo(name);
        }

        @Override
        public Set<String> locksTakenAfter(String name) {
            return real.locksTakenAfter(name);
        }

        @Override
        public Set<String> locks() {
            return real.locks();
        }

        @Override
        public List<ResourceAccess> commitAccesses() {
            return real.commitAccesses();
        }

        @Override
        public List<ResourceAccess> rollbackAccesses() {
            return real.rollbackAccesses();
        }

        @Override
        public List<ResourceAccess> rollbackToAccesses(String name) {
            return real.rollbackToAccesses(name);
        }

        @Override
        public List<ResourceAccess> abortAccesses() {
            return real.abortAccesses();
        }

        @Override
        public Set<String> locksReleasedByAbort() {
            return real.locksReleasedByAbort();
        }
    }
}
