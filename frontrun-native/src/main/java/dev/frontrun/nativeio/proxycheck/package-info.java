/**
 * Checks from beneath the JDK that every statement an explored thread sends went through the JDBC proxy.
 *
 * <h2>{@link ProxyCrossCheck}</h2>
 *
 * <p>What is compared, per explored thread and execution: each execution of a statement (a Bind of
 * a prepared statement, or a statement of a simple Query) against the SQL texts
 * {@code FrontrunDataSource.announcedSql} lists, as a multiset (a bypassed connection running the
 * same statement as a proxied one is caught too). Tolerated without an announcement: transaction
 * framing and session settings, which touch no data (see {@code WireSql.framing}). SQL of threads
 * that are not explored is not checked, nor is the SQL Frontrun runs itself on its own connections
 * (catalog lookups), which announce themselves with {@code application_name=frontrun}. Needs the library preloaded (see {@code NativeIo}); the
 * threads are recognised by their kernel thread id, which each explored thread records when it
 * starts its body ({@code ExplorationHook.threadStarting}).
 *
 * <p>Not caught: a connection outside the proxy that prepared a statement server-side before the
 * exploration began and only re-runs it (Bind without Parse) during it; a connection over TLS or
 * a Unix-domain socket (it ends the exploration with an error saying so).
 */
package dev.frontrun.nativeio.proxycheck;
