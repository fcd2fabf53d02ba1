package dev.frontrun.internal.instrument;

import dev.frontrun.internal.engine.execution.MarkerPoint;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Inserts a marker scheduling point where a line marked {@code // frontrun: name} begins, as the
 * method's line table says (once per pass over the line: at its first entry in the method).
 */
final class MarkerSiteVisitor extends MethodVisitor {

    private static final String HOOK = Type.getInternalName(MarkerPoint.class);

    private final Map<Integer, List<String>> markers;
    private final Set<Integer> done = new HashSet<>();

    MarkerSiteVisitor(MethodVisitor delegate, Map<Integer, List<String>> markers) {
        super(Opcodes.ASM9, delegate);
        this.markers = markers;
    }

    @Override
    public void visitLineNumber(int line, Label start) {
        super.visitLineNumber(line, start);
        List<String> names = markers.get(line);
        if (names != null && done.add(line)) {
            for (String marker : names) {
                super.visitLdcInsn(marker);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "reached", "(Ljava/lang/String;)V", false);
            }
        }
    }
}
