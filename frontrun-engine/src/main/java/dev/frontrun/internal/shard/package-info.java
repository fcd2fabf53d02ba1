/**
 * Sharding one exploration across jobs ({@code -Dfrontrun.shard=i/n}). Every job enumerates the same top levels
 * of the exploration tree with sleep sets, explores by DPOR below the leaves it owns (leaf j to shard j mod n),
 * and writes its share's verdict to a report file; {@link dev.frontrun.internal.shard.ShardMerge} merges the
 * files of all shards into the whole verdict.
 */
package dev.frontrun.internal.shard;
