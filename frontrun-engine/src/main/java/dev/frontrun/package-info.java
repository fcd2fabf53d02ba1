/**
 * Frontrun's API: describe a race with {@link dev.frontrun.Frontrun#explore}, run it, and read the {@link
 * dev.frontrun.Result}.
 *
 * <h2 id="threads">Threads and their answers</h2>
 *
 * <p>Threads are indexed 0, 1, … in the order they are added. Threads added together by {@code threads(count, name,
 * body)} run one body, such as two identical requests: of the executions that differ only by swapping two of them one
 * is explored (symmetry), so the invariant must not tell them apart. Naming one of them in {@link
 * dev.frontrun.Outcomes} is refused, and so is a body that does not do the same when each runs first.
 *
 * <p>An expected answer ({@code expect}, {@code expectStatus}, {@code expectSqlState}) ends its thread's body as told
 * no; the execution goes on and the invariant sees it in the {@link dev.frontrun.Outcomes}. A thread whose exception
 * was caused by an expected one is told no too. MockMvc rethrows what the application did not handle, so a request
 * answered with a declared status is told no even when its body threw; an undeclared 5xx answer fails the thread.
 * {@code expectSqlState("40001")} is narrower than {@code expect(SQLException.class)}, which accepts every error of
 * the database, a unique violation too.
 *
 * <p>Every invariant may assert ({@code assertThat}, {@code assertEquals}) or throw. A throw that needs the threads to
 * interleave is a failure carrying the exception's message; one that comes also with the threads run one after the
 * other, in each order, is a broken test ({@link dev.frontrun.Verdict#ERROR}).
 *
 * <h2 id="serializable">Serializability without an invariant</h2>
 *
 * <p>{@code serializable()} checks that every outcome is one a serial order of the threads gives. Before exploring,
 * the threads run one after the other in every order (2 runs for two threads, 6 for three, 120 for five), each from
 * the restored start, and what each run shows is recorded; an explored execution whose observation equals none of
 * them fails ({@link dev.frontrun.Failure.NotSerializable}), and the summary shows what differs from the nearest
 * serial order. Serial orders run again when an execution writes a table none of them had.
 *
 * <p>By default ({@code Observation.database()}) it observes the rows of the tables the threads wrote or read with a
 * locking read, by primary key, and every thread's answer (its exception class or none, its HTTP status), with
 * generated keys renamed, clock defaults left out and {@code version} counters compared as moved or not: docs/model.md
 * says exactly how. Every exception a thread throws is an answer, but an {@link Error} is never one. An invariant given
 * as well is checked as well; an observing function runs after the invariant, on the same state. The Spring starter's
 * explorations check serializability unless an invariant is given.
 *
 * <h2 id="budget">Budgets</h2>
 *
 * <p>A thread that loops until another thread writes is chosen again and again by the schedule that lets the running
 * thread go on: without {@code maxStepsPerExecution} its steps would fill the memory long before the execution's
 * time-out. A budget that runs out makes the verdict inconclusive, and {@link dev.frontrun.Result#reach()} estimates
 * the budget that would likely finish the exploration: each node's share of the tree is split evenly among the
 * threads that may race there (docs/results.md); the share done never goes back and is exactly 1 when the tree is
 * exhausted.
 *
 * <h2 id="database">Databases</h2>
 *
 * <p>Against a database, every execution starts from the snapshot taken before the first, and the database is
 * restored after the last too. The explored code must use the wrapped data source: threads that ran without one
 * scheduling point (no SQL through a {@link dev.frontrun.jdbc.FrontrunDataSource} proxy, no instrumented
 * synchronization or shared memory) give an error, not a green result. A forced {@code isolation} sets each
 * connection the threads take to that level, and the application's own settings through JDBC yield. A {@code
 * baseline} runs the threads on a thread Frontrun stays out of the way of (the proxy hands out the real connections).
 *
 * <h2 id="key-order">Key order</h2>
 *
 * <p>Two inserts that draw keys from one sequence race for which gets the lower key, so by default both orders are
 * explored, and with retries the draws of every attempt multiply the executions. {@code generatedKeysInAnyOrder()}
 * declares that the order changes nothing: draws from a sequence (and inserts that take a generated key) then commute,
 * and every outcome is reached up to renaming the keys. Code that compares keys, or picks the lowest as the first to
 * come, does depend on the order: do not declare it there. The summary says when the declaration was made.
 *
 * <h2 id="instrumented">Instrumented Java code</h2>
 *
 * <p>{@code instrument(packages)} makes the Java synchronization of those classes scheduling points, so who takes a
 * lock first is explored: {@code synchronized} blocks and methods, {@code Object.wait/notify/notifyAll}, {@code
 * ReentrantLock} calls, {@code CountDownLatch} and {@code Thread.join}. A thread waiting for a lock another explored
 * thread holds is known to be blocked. The classes are instrumented once per JVM (Byte Buddy attaches itself; loaded
 * classes are retransformed); outside an exploration an instrumented site costs one type check of the current
 * thread. Name the application's packages, not frameworks': their own locks would multiply the traces.
 *
 * <p>Shared memory: the instrumented classes' non-final fields, array elements, atomics, adders and {@code
 * ConcurrentHashMap} keys are resources whose accesses are scheduling points. An object an explored thread creates
 * in an execution is a resource of its own, named after the thread and the order of creation (the same in every
 * replay), so requests working on their own objects do not conflict; every other object (singletons, the state the
 * setup builds, what uninstrumented code creates) is named after its class, coarser.
 *
 * <p>Spurious wake-ups: a wait ({@code Object.wait()}, {@code Condition.await()}) may return without a notification,
 * at most once per thread and wait site in an execution. A guarded {@code while (!cond) wait();} re-checks and waits
 * again, so one spurious wake-up shows all it can; an unguarded {@code if} is caught. Without them explored executions
 * are fewer, and a result that ran a wait says so under "not explored".
 *
 * <h2 id="ci">Corpus, parallel workers and shards</h2>
 *
 * <p>A corpus file keeps an exploration's counterexamples: a failing run adds its counterexample, and the next run
 * replays the stored schedules before it explores, so a found race fails at once. A schedule the program can no
 * longer follow is stale: reported in {@link dev.frontrun.Result#corpus()} and dropped, never a failure. It is meant to
 * be committed with the tests (docs/exploring.md).
 *
 * <p>With {@code parallelism}, each execution runs against the worker's own copy of the database, and an execution
 * run ahead is accepted only if the one DPOR state would have made exactly its choices: the results are those of
 * exploring on one thread. It needs every statement to go through the {@link dev.frontrun.jdbc.FrontrunDataSource}
 * proxy, a pool at least as large as the threads, hooks that can run on workers ({@link
 * dev.frontrun.spi.ExplorationHook#forWorker}; the Spring starter's cannot), and a setup, thread bodies and invariant
 * that share nothing but the database. Only DPOR explores in parallel. A shard is the share one CI job explores; the
 * shards' reports merged by {@link dev.frontrun.Frontrun#mergeShards} give the whole verdict. Only an unbounded DPOR
 * exploration is split (docs/ci.md).
 *
 * <h2 id="levels">Isolation levels, advice and retries</h2>
 *
 * <p>The advice of an anomaly is checked by exploring the failure again with every transaction at the level it
 * recommends ({@link dev.frontrun.Result.CheckedAdvice}); the check costs one more exploration, run only when something
 * failed. {@link dev.frontrun.Result#whatIf} runs such a check for any level. A run at a forced level counts a thread
 * that PostgreSQL's serialization failure (40001) or deadlock (40P01) ended as told no, as if the test had declared that
 * answer (retried, or reported to the caller), and explores on past it: it holds if no interleaving breaks the
 * invariant with nobody told, then {@link dev.frontrun.Result#retriesTold()} says the fix needs the retry, and fails
 * where one still does. A request-level race fails at every level: when the level the transaction-level finding
 * recommends did not fix the failure and the trace also shows the anomaly between requests, that one leads the report.
 */
package dev.frontrun;
