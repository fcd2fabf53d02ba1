package dev.frontrun.demo.petclinic.model;

/**
 * An entity whose {@code version} attribute the mapping file of the active variant either ignores
 * (classic: {@code <transient>}, so it stays {@code null}) or maps as the JPA {@code @Version}
 * (fixed). The Java code is the same in both.
 */
public interface Versioned {

    /** The optimistic-lock version, or {@code null} where the variant does not map it. */
    Integer getVersion();
}
