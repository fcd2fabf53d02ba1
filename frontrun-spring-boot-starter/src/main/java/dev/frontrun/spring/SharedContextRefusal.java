package dev.frontrun.spring;

import dev.frontrun.spi.ExplorationHook;

/**
 * Refuses to explore a Spring application on parallel workers ({@code parallelism(n)}, n &gt; 1).
 * Every
 * request runs in the one application context, whose singletons, caches, pool and transaction managers
 * all requests share. Executions running side by side would share them too — an execution could see
 * another one's effects, and a worker's copy of the database cannot be given to one execution's requests
 * and not to another's, since they reach it through the same beans — so the verdict would no longer be
 * the sequential exploration's.
 */
final class SharedContextRefusal implements ExplorationHook {

    @Override
    public ExplorationHook forWorker(int worker) {
        throw new UnsupportedOperationException("a Spring application is explored on one worker: all requests share"
                + " the one application context (its beans, caches, connection pool and transactions), so executions"
                + " running side by side would share them too, and the results would not be those of a sequential"
                + " exploration");
    }
}
