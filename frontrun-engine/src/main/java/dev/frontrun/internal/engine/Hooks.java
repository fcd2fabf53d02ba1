package dev.frontrun.internal.engine;

import dev.frontrun.spi.ExplorationHook;
import java.util.List;

/** Calls the exploration's hooks, so that a hook's checked exception says in which callback it failed. */
final class Hooks {

    private Hooks() {}

    interface HookCall {
        void run() throws Exception;
    }

    static void runAll(List<ExplorationHook> hooks, HookStage stage, String name) {
        for (ExplorationHook hook : hooks) {
            call(() -> stage.apply(hook), name);
        }
    }

    interface HookStage {
        void apply(ExplorationHook hook) throws Exception;
    }

    static void call(HookCall call, String what) {
        try {
            call.run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("exploration hook failed in " + what + ": " + e.getMessage(), e);
        }
    }
}
