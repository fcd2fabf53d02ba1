/**
 * Stage 4: resource ids and access kinds. {@link dev.frontrun.internal.sql.resource.AccessSetBuilder} implements
 * the weak/strong scheme documented in the {@code dev.frontrun.sql} package so that row, table and
 * endpoint accesses conflict soundly under plain string equality of ids.
 */
package dev.frontrun.internal.sql.resource;
