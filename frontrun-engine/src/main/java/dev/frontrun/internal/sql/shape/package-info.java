/**
 * What the anomaly classifier needs to know about a statement beyond the resources it touches,
 * computed once per SQL text next to its classification: whether it takes a snapshot, whether a
 * SELECT locks rows, which isolation level it sets, and whether a write is blind (its values come
 * from the client) or reads the row it writes.
 */
package dev.frontrun.internal.sql.shape;
