package dev.frontrun.demo.petclinic;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

/**
 * The standalone mode, as {@code spring-boot:run} starts it: no {@code spring.datasource.url}, so
 * the application starts its own embedded PostgreSQL, initialises it and serves real HTTP.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.main.banner-mode=off", "logging.level.root=WARN"})
class StandaloneModeTest {

    @LocalServerPort
    int port;

    @Autowired
    ApplicationContext context;

    @Autowired
    DataSource dataSource;

    @Test
    void startsOnAnEmbeddedPostgresAndServesTheVets() throws Exception {
        EmbeddedPostgres postgres = context.getBean(EmbeddedPostgres.class);
        try (Connection c = dataSource.getConnection()) {
            assertThat(c.getMetaData().getURL()).contains(":" + postgres.getPort() + "/");
        }

        HttpResponse<String> vets = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/vets"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(vets.statusCode()).isEqualTo(200);
        assertThat(vets.body()).contains("\"lastName\":\"Carter\"", "\"name\":\"radiology\"");
    }
}
