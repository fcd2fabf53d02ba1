package dev.frontrun.internal.engine;

import dev.frontrun.spi.SchedulingPoints;

/**
 * Runs one round of a baseline's work plainly, beside the exploring thread. A {@link SchedulingPoints.Bystander},
 * so that no source of scheduling points (the JDBC proxy above all) adds its cost to what the round measures.
 */
final class BystanderThread extends Thread implements SchedulingPoints.Bystander {

    private final Runnable round;
    private Throwable thrown;
    private long nanos;

    private BystanderThread(Runnable round) {
        super("frontrun-baseline");
        setDaemon(true);
        this.round = round;
    }

    /** Runs {@code round} on a bystander thread and returns its wall time; what it throws is rethrown here. */
    static long run(Runnable round) {
        BystanderThread thread = new BystanderThread(round);
        thread.start();
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the round runs to its end: its connections must go back to the pool
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (thread.thrown != null) {
            throw BystanderThread.<RuntimeException>rethrown(thread.thrown); // also a checked one thrown undeclared
        }
        return thread.nanos;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T rethrown(Throwable thrown) throws T {
        throw (T) thrown;
    }

    @Override
    public void run() {
        long begin = System.nanoTime();
        try {
            round.run();
        } catch (Throwable e) {
            thrown = e;
        } finally {
            nanos = System.nanoTime() - begin;
        }
    }
}
