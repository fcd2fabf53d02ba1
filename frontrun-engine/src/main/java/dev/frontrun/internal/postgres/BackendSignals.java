package dev.frontrun.internal.postgres;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Pauses and resumes PostgreSQL backend processes running on this machine ({@code SIGSTOP} /
 * {@code SIGCONT}). When two explored statements wait inside the server at once, one release may wake
 * both, and which one the server lets go on first is then decided by the operating system's scheduler,
 * not by the explored schedule. Holding the waiting backends paused lets the scheduler decide (and
 * explore) which resumes first. The JDK cannot send these signals itself, so one shell lives as long
 * as the exploration and runs its {@code kill} builtin: no process start per signal. The shell also
 * remembers what it paused and resumes all of it when its input ends, so a JVM that dies (even killed)
 * never leaves a server process paused.
 */
public final class BackendSignals implements AutoCloseable {

    /** Reads "stop PID" / "cont PID" lines, answers ok or no; at the end of its input resumes all it paused. */
    private static final String SCRIPT = """
            paused=""
            while read -r verb pid; do
              if [ "$verb" = stop ]; then
                if kill -STOP "$pid" 2>/dev/null; then paused="$paused $pid"; echo ok; else echo no; fi
              else
                if kill -CONT "$pid" 2>/dev/null; then echo ok; else echo no; fi
              fi
            done
            for pid in $paused; do kill -CONT "$pid" 2>/dev/null; done
            """;

    private Process shell;
    private Writer commands;
    private BufferedReader answers;
    private boolean broken;

    /** Pauses backend {@code pid}; false when it is not a PostgreSQL backend of this machine this process may signal. */
    public synchronized boolean stop(int pid) {
        return isLocalBackend(pid) && run("stop " + pid);
    }

    /** Lets a paused backend go on. */
    public synchronized void resume(int pid) {
        run("cont " + pid);
    }

    /**
     * Whether {@code pid} is a PostgreSQL backend process seen by this machine's {@code /proc}. A server in
     * another host or PID namespace is not (its pid would name an unrelated process here, or none).
     */
    public static boolean isLocalBackend(int pid) {
        try {
            byte[] cmdline = Files.readAllBytes(Path.of("/proc", Integer.toString(pid), "cmdline"));
            return new String(cmdline, StandardCharsets.UTF_8).startsWith("postgres: ");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private boolean run(String command) {
        if (broken) {
            return false;
        }
        try {
            if (shell == null) {
                ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", SCRIPT).redirectErrorStream(true);
                builder.environment().remove("LD_PRELOAD"); // Frontrun's own I/O interposer has no business in it
                shell = builder.start();
                commands = new OutputStreamWriter(shell.getOutputStream(), StandardCharsets.UTF_8);
                answers = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.UTF_8));
            }
            commands.write(command + "\n");
            commands.flush();
            return "ok".equals(answers.readLine());
        } catch (IOException e) {
            broken = true; // no shell here: the caller falls back to letting the server decide
            return false;
        }
    }

    /** Ends the shell's input as a dying JVM would, and waits for the shell to finish: for tests of that path. */
    synchronized void abandon() throws InterruptedException, IOException {
        if (shell != null) {
            commands.close();
            shell.waitFor();
            shell = null;
        }
    }

    @Override
    public synchronized void close() {
        if (shell != null) {
            shell.destroy();
            shell = null;
        }
    }
}
