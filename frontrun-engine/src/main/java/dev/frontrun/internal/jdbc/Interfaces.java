package dev.frontrun.internal.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Wrapper;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** Dynamic proxies that keep every interface of the object they wrap. */
final class Interfaces {

    private static final ConcurrentMap<Class<?>, Class<?>[]> CACHE = new ConcurrentHashMap<>();

    private Interfaces() {}

    @SuppressWarnings("unchecked")
    static <T> T proxy(Class<T> required, Object target, InvocationHandler handler) {
        ClassLoader loader = loaderOf(target);
        Class<?>[] interfaces = CACHE.computeIfAbsent(target.getClass(), c -> interfacesOf(c, required, loader));
        return (T) Proxy.newProxyInstance(loader, interfaces, handler);
    }

    /** The driver's (or pool's) loader sees its own interfaces and java.sql; fall back to ours. */
    private static ClassLoader loaderOf(Object target) {
        ClassLoader loader = target.getClass().getClassLoader();
        return loader != null ? loader : Interfaces.class.getClassLoader();
    }

    private static Class<?>[] interfacesOf(Class<?> type, Class<?> required, ClassLoader loader) {
        Set<Class<?>> all = new LinkedHashSet<>();
        all.add(required);
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            collect(c, all);
        }
        all.removeIf(i -> !visible(i, loader));
        return all.toArray(Class<?>[]::new);
    }

    private static void collect(Class<?> c, Set<Class<?>> into) {
        for (Class<?> i : c.getInterfaces()) {
            if (java.lang.reflect.Modifier.isPublic(i.getModifiers()) && into.add(i)) {
                collect(i, into);
            }
        }
    }

    private static boolean visible(Class<?> i, ClassLoader loader) {
        try {
            return Class.forName(i.getName(), false, loader) == i;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Calls {@code method} on {@code target}, rethrowing what it threw rather than a reflection wrapper. */
    static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Whether the call is {@code unwrap}/{@code isWrapperFor}, answered for the proxy and then the target. */
    static boolean isWrapperCall(Method method) {
        return method.getDeclaringClass() == Wrapper.class
                || (method.getName().equals("unwrap") || method.getName().equals("isWrapperFor"))
                        && method.getParameterCount() == 1
                        && method.getParameterTypes()[0] == Class.class;
    }

    static Object wrapperCall(Object proxy, Object target, Method method, Object[] args) throws Throwable {
        Class<?> type = (Class<?>) args[0];
        if (method.getName().equals("isWrapperFor")) {
            return type.isInstance(proxy) || type.isInstance(target) || (boolean) invoke(target, method, args);
        }
        if (type.isInstance(target)) {
            return target;
        }
        return invoke(target, method, args);
    }
}
