package dev.frontrun.oracle;

import java.util.Arrays;
import java.util.List;

/** Hand-written programs for the oracle's own tests: a readable way to spell threads and statements. */
final class Programs {

    private Programs() {}

    static Op op(Op.Kind kind, Object... args) {
        return new Op(kind, Arrays.asList(args));
    }

    static ThreadProgram autocommit(Op... ops) {
        return new ThreadProgram(ThreadProgram.Mode.AUTOCOMMIT, false, List.of(ops), -1);
    }

    static ThreadProgram transaction(ThreadProgram.Mode mode, Op... ops) {
        return new ThreadProgram(mode, false, List.of(ops), -1);
    }

    static Program program(ThreadProgram... threads) {
        return new Program(0, List.of(threads));
    }
}
