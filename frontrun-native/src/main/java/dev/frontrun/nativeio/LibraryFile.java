package dev.frontrun.nativeio;

import com.sun.jna.Platform;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The interposer as a file on disk, which is what LD_PRELOAD needs. Used as is when the classpath
 * entry is a directory; extracted from a jar into a directory named after its content hash, so the
 * path (and so the LD_PRELOAD line a user copies) stays the same across runs of the same build.
 */
final class LibraryFile {

    static final String FILE_NAME = "libfrontrun_io.so";

    private LibraryFile() {}

    static String resourceName() {
        return "native/" + Platform.RESOURCE_PREFIX + "/" + FILE_NAME;
    }

    /** The library file, or empty when this build has none for this platform. */
    static Optional<Path> locate() {
        URL url = LibraryFile.class.getClassLoader().getResource(resourceName());
        if (url == null) {
            return Optional.empty();
        }
        try {
            if ("file".equals(url.getProtocol())) {
                return Optional.of(Path.of(url.toURI()));
            }
            return Optional.of(extract(url));
        } catch (IOException e) {
            throw new UncheckedIOException("could not extract " + url, e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("unexpected resource URL " + url, e);
        }
    }

    private static Path extract(URL url) throws IOException {
        byte[] content;
        try (InputStream in = url.openStream()) {
            content = in.readAllBytes();
        }
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "frontrun-native-" + hash(content));
        Path target = dir.resolve(FILE_NAME);
        if (Files.isRegularFile(target) && Files.size(target) == content.length) {
            return target;
        }
        Files.createDirectories(dir);
        Path partial = Files.createTempFile(dir, FILE_NAME, ".part");
        Files.write(partial, content);
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return target;
    }

    private static String hash(byte[] content) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(content);
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
