package dev.frontrun.internal.sql.parse.jsql;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Visits every JSqlParser node below a root by reflection over its fields. The statement analyzer
 * handles FROM clauses and predicates explicitly, but subqueries and function calls may hide in any
 * clause of any node type; walking fields generically means a clause the analyzer does not know about
 * still has its subqueries and calls seen, which keeps the analysis sound as JSqlParser grows.
 */
final class AstWalker {

    /** Called for each node; returns whether to descend into the node's children. */
    interface Visitor {
        boolean enter(Object node);
    }

    private static final String AST_PACKAGE = "net.sf.jsqlparser.";
    private static final String PARSER_PACKAGE = "net.sf.jsqlparser.parser.";

    private static final ClassValue<Field[]> CHILD_FIELDS = new ClassValue<>() {
        @Override
        protected Field[] computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && c.getName().startsWith(AST_PACKAGE); c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (isChildField(f)) {
                        f.setAccessible(true);
                        fields.add(f);
                    }
                }
            }
            return fields.toArray(new Field[0]);
        }
    };

    private final Set<Object> skip;
    private final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Visitor visitor;

    private AstWalker(Set<Object> skip, Visitor visitor) {
        this.skip = skip;
        this.visitor = visitor;
    }

    /** Visits the descendants of {@code root} (not {@code root} itself), never entering nodes in {@code skip}. */
    static void walkChildren(Object root, Set<Object> skip, Visitor visitor) {
        AstWalker walker = new AstWalker(skip, visitor);
        walker.seen.add(root);
        walker.children(root);
    }

    private void visit(Object node) {
        if (node == null || !isAstOrContainer(node) || skip.contains(node) || !seen.add(node)) {
            return;
        }
        if (node instanceof Collection<?>
                || node instanceof Map<?, ?>
                || node.getClass().isArray()) {
            children(node);
            return;
        }
        if (visitor.enter(node)) {
            children(node);
        }
    }

    private void children(Object node) {
        if (node instanceof Collection<?> collection) {
            for (Object element : collection) {
                visit(element);
            }
        } else if (node instanceof Map<?, ?> map) {
            for (Object value : map.values()) {
                visit(value);
            }
        } else if (node instanceof Object[] array) {
            for (Object element : array) {
                visit(element);
            }
        }
        if (!node.getClass().getName().startsWith(AST_PACKAGE)) {
            return;
        }
        for (Field f : CHILD_FIELDS.get(node.getClass())) {
            try {
                visit(f.get(node));
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("cannot read " + f, e);
            }
        }
    }

    private static boolean isAstOrContainer(Object node) {
        Class<?> c = node.getClass();
        return c.getName().startsWith(AST_PACKAGE) && !c.getName().startsWith(PARSER_PACKAGE) && !c.isEnum()
                || node instanceof Collection<?>
                || node instanceof Map<?, ?>
                || node instanceof Object[];
    }

    private static boolean isChildField(Field f) {
        if (Modifier.isStatic(f.getModifiers())) {
            return false;
        }
        Class<?> t = f.getType();
        if (t.isPrimitive()
                || t == String.class
                || t.isEnum()
                || Number.class.isAssignableFrom(t)
                || t == Boolean.class
                || t == Character.class) {
            return false;
        }
        return !t.getName().startsWith(PARSER_PACKAGE);
    }
}
