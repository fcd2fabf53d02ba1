package dev.frontrun.internal.instrument;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.Attribute;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.TypePath;
import net.bytebuddy.pool.TypePool;

/**
 * Puts back the parameter names a retransformed class lost, so a class loaded before its package was
 * instrumented can be instrumented on every JDK.
 *
 * <p>Before JDK 19 the JVM rebuilds a loaded class's file for retransformation without its
 * {@code MethodParameters} attribute (JDK-8240908); Spring MVC and Spring Data read those names. The original
 * class file, read from the class's own loader, still has them: each method that arrives without parameter
 * entries gets the original's, before any other part of the method.
 */
final class ParameterNamesRestored extends AsmVisitorWrapper.AbstractBase {

    /** Whether this JVM drops {@code MethodParameters} when it retransforms a class. */
    static final boolean NEEDED = Runtime.version().feature() < 19;

    private record Parameter(String name, int access) {}

    private final Map<String, List<Parameter>> original;

    private ParameterNamesRestored(Map<String, List<Parameter>> original) {
        this.original = original;
    }

    /** The wrapper for {@code type} loaded by {@code loader}, or none when its class file has no parameter names. */
    static AsmVisitorWrapper of(TypeDescription type, ClassLoader loader) {
        Map<String, List<Parameter>> names = NEEDED && loader != null ? read(type, loader) : Map.of();
        return names.isEmpty() ? AsmVisitorWrapper.NoOp.INSTANCE : new ParameterNamesRestored(names);
    }

    /** The parameter entries of each method of the class file the loader has, by name and descriptor. */
    private static Map<String, List<Parameter>> read(TypeDescription type, ClassLoader loader) {
        Map<String, List<Parameter>> names = new HashMap<>();
        try (InputStream in = loader.getResourceAsStream(type.getInternalName() + ".class")) {
            if (in == null) {
                return Map.of();
            }
            new ClassReader(in.readAllBytes())
                    .accept(
                            new ClassVisitor(Opcodes.ASM9) {
                                @Override
                                public MethodVisitor visitMethod(
                                        int access,
                                        String name,
                                        String descriptor,
                                        String signature,
                                        String[] exceptions) {
                                    List<Parameter> parameters = new ArrayList<>();
                                    names.put(name + descriptor, parameters);
                                    return new MethodVisitor(Opcodes.ASM9) {
                                        @Override
                                        public void visitParameter(String parameter, int parameterAccess) {
                                            parameters.add(new Parameter(parameter, parameterAccess));
                                        }
                                    };
                                }
                            },
                            ClassReader.SKIP_CODE | ClassReader.SKIP_FRAMES); // SKIP_DEBUG would skip MethodParameters
        } catch (IOException | RuntimeException unreadable) {
            return Map.of(); // nothing to put back: the class is instrumented as the JVM hands it over
        }
        names.values().removeIf(List::isEmpty);
        return names;
    }

    @Override
    public ClassVisitor wrap(
            TypeDescription instrumentedType,
            ClassVisitor classVisitor,
            Implementation.Context implementationContext,
            TypePool typePool,
            FieldList<FieldDescription.InDefinedShape> fields,
            MethodList<?> methods,
            int writerFlags,
            int readerFlags) {
        return new ClassVisitor(Opcodes.ASM9, classVisitor) {
            @Override
            public MethodVisitor visitMethod(
                    int access, String name, String descriptor, String signature, String[] exceptions) {
                MethodVisitor visitor = super.visitMethod(access, name, descriptor, signature, exceptions);
                List<Parameter> parameters = original.get(name + descriptor);
                return visitor == null || parameters == null ? visitor : new Restoring(visitor, parameters);
            }
        };
    }

    /** Writes the original parameter entries before a method's first other part, unless the method brought its own. */
    private static final class Restoring extends MethodVisitor {

        private List<Parameter> missing;

        Restoring(MethodVisitor delegate, List<Parameter> parameters) {
            super(Opcodes.ASM9, delegate);
            this.missing = parameters;
        }

        private void restore() {
            if (missing != null) {
                missing.forEach(p -> super.visitParameter(p.name(), p.access()));
                missing = null;
            }
        }

        @Override
        public void visitParameter(String name, int access) {
            missing = null; // the class file kept its names
            super.visitParameter(name, access);
        }

        @Override
        public AnnotationVisitor visitAnnotationDefault() {
            restore();
            return super.visitAnnotationDefault();
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            restore();
            return super.visitAnnotation(descriptor, visible);
        }

        @Override
        public AnnotationVisitor visitTypeAnnotation(
                int typeRef, TypePath typePath, String descriptor, boolean visible) {
            restore();
            return super.visitTypeAnnotation(typeRef, typePath, descriptor, visible);
        }

        @Override
        public void visitAnnotableParameterCount(int parameterCount, boolean visible) {
            restore();
            super.visitAnnotableParameterCount(parameterCount, visible);
        }

        @Override
        public AnnotationVisitor visitParameterAnnotation(int parameter, String descriptor, boolean visible) {
            restore();
            return super.visitParameterAnnotation(parameter, descriptor, visible);
        }

        @Override
        public void visitAttribute(Attribute attribute) {
            restore();
            super.visitAttribute(attribute);
        }

        @Override
        public void visitCode() {
            restore();
            super.visitCode();
        }

        @Override
        public void visitEnd() {
            restore();
            super.visitEnd();
        }
    }
}
