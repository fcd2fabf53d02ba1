/**
 * Schedule policies: which thread takes the next step. Optimal DPOR with wakeup trees and sleep sets, random,
 * replay, marker schedules and one-after-the-other orders. A policy sees recorded steps and choices only.
 *
 * <h2>DPOR</h2>
 *
 * <p>{@link dev.frontrun.internal.engine.policy.DporPolicy} is optimal dynamic partial-order reduction (Abdulla,
 * Aronis, Jonsson, Sagonas: "Source Sets: A Foundation for Optimal Dynamic Partial Order Reduction", JACM 2017,
 * Algorithm 2), run statelessly: every execution replays a prefix of the previous one and diverges at the deepest
 * node whose wakeup tree still holds a branch ({@code DporPath}).
 *
 * <p>Each node of the current path keeps its sleep set (threads whose next event was explored
 * there already, or is asleep by independence) and its wakeup tree. At the end of an execution
 * every reversible race {@code e ≲ e'} adds {@code notdep(e).e'} to the wakeup tree before
 * {@code e}, unless a sleeping thread is a weak initial of it. A database lock seldom disables a
 * thread: a statement that would wait inside PostgreSQL is started and waits there (its position
 * before the holder's commit is a state of its own, reached by reversing its race with the commit).
 * Only a READ COMMITTED statement by key, which would read the row's newest version after the wait
 * wherever it started, stands held back while another thread surely holds its row; its race with the
 * holder is reversed before the holder's take of the row. A Java lock does disable a thread while another
 * explored thread holds it; a race between its give-back and a later take is reversed before the matching take.
 *
 * <p>No resource-group heuristic is needed to keep steps on unrelated resources (other tables)
 * from multiplying the search: a wakeup sequence only carries the events that do not happen after
 * the racing one, so independent intermediate steps never create branches of their own
 * ({@code TraceCountTest.unrelatedIntermediateStepsDoNotExplodeTheSearch}).
 *
 * <p>With a preemption bound, nodes whose choice would exceed it are not explored, and a race
 * whose reversal needs too many preemptions is reversed at the latest earlier node where
 * switching to the racing thread is not a preemption (after Coons et al., bounded POR).
 *
 * <p>At the end of an execution {@code RaceAnalysis} gives each event a vector clock. An event's happens-before
 * predecessors are the latest conflicting event of every other thread, its thread's previous event, the event that
 * let a statement waiting inside the database run on ({@code releasedBy}), and, for a later member of a group of
 * symmetric threads, the earlier member's first event that touches anything ({@code startedBefore}, from each
 * thread's {@code firstTouches}): an order every execution keeps. A race is reversible when its earlier event is
 * ordered before the later one through no other predecessor. {@code RaceReversal} plants the wakeup sequence that
 * reverses it: the events after the earlier one that do not happen after it, then the racing event; before the
 * earlier event, or before the take of the Java lock or the row its thread holds where the racing event would wait;
 * under a preemption bound, at the latest earlier node where switching to the racing thread is not a preemption.
 */
package dev.frontrun.internal.engine.policy;
