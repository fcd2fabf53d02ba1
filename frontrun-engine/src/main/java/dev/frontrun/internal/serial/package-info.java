/**
 * Serializability as the property checked. The threads run one after the other in every order, each such run's
 * observation recorded, and an explored execution whose observation equals none of them fails. {@link
 * dev.frontrun.internal.serial.SerialSpec} is what the user asked to observe; {@link
 * dev.frontrun.internal.serial.Observer} observes a finished run (the database's rows through the exploration's
 * snapshot connection, normalised, and each thread's answer) and tells an observation from the nearest serial one.
 */
package dev.frontrun.internal.serial;
