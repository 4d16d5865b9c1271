package dev.navi.neo4j;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;

/**
 * Runs Neo4j Community embedded with its Bolt connector, for Navi's local stack and tests.
 *
 * <p>Navi talks to it only through the Bolt protocol (neo4j-go-driver), exactly as to a production
 * Neo4j. Configuration comes from flags or the environment; the password only from the
 * environment (NAVI_NEO4J_PASSWORD), so it never shows in a process list.
 *
 * <p>Exit codes: 0 after a clean shutdown (SIGTERM or SIGINT), 2 for bad configuration or a port
 * already taken, 1 when Neo4j itself fails to start.
 */
public final class Launcher {
  private Launcher() {}

  public static void main(String[] args) {
    Config cfg;
    try {
      cfg = Config.parse(args);
    } catch (IllegalArgumentException e) {
      fail(2, e.getMessage());
      return;
    }
    if (!portFree(cfg.bind, cfg.boltPort)) {
      fail(
          2,
          "port "
              + cfg.boltPort
              + " on "
              + cfg.bind
              + " is already in use: stop what holds it (`make down`, or `ss -ltnp 'sport = :"
              + cfg.boltPort
              + "'` to find it) or set NAVI_NEO4J_BOLT_PORT to another port");
    }

    DatabaseManagementService dbms;
    try {
      Files.createDirectories(cfg.home);
      dbms =
          new DatabaseManagementServiceBuilder(cfg.home)
              .setConfig(BoltConnector.enabled, true)
              .setConfig(BoltConnector.listen_address, new SocketAddress(cfg.bind, cfg.boltPort))
              .setConfig(BoltConnector.advertised_address, new SocketAddress(cfg.bind, cfg.boltPort))
              .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
              .setConfig(HttpConnector.enabled, false)
              .setConfig(GraphDatabaseSettings.auth_enabled, cfg.authEnabled)
              .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(cfg.pageCacheMiB))
              .setConfig(GraphDatabaseSettings.keep_logical_logs, "2 files")
              .setConfig(GraphDatabaseSettings.shutdown_transaction_end_timeout, Duration.ofSeconds(5))
              .build();
    } catch (IOException | RuntimeException e) {
      fail(1, "Neo4j failed to start in " + cfg.home + ": " + rootMessage(e)
          + " (see " + cfg.home.resolve("logs/debug.log") + ")");
      return;
    }

    CountDownLatch stopped = new CountDownLatch(1);
    final DatabaseManagementService running = dbms;
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.out.println("navi-neo4j: stopping");
                  running.shutdown();
                  stopped.countDown();
                },
                "navi-neo4j-shutdown"));

    try {
      if (cfg.authEnabled) {
        setPassword(dbms.database("system"), cfg.user, cfg.password);
      }
      // Fail fast here rather than at the first Bolt request if the default database is broken.
      dbms.database("neo4j").executeTransactionally("RETURN 1");
    } catch (RuntimeException e) {
      fail(1, "Neo4j started but is not usable: " + rootMessage(e)
          + " (see " + cfg.home.resolve("logs/debug.log") + ")");
    }

    System.out.printf(
        "navi-neo4j: ready on bolt://%s:%d (data %s, auth %s)%n",
        cfg.bind, cfg.boltPort, cfg.home, cfg.authEnabled ? "user " + cfg.user : "disabled");
    System.out.flush();
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Makes the configured credentials the valid ones on every start, so changing
   * NAVI_NEO4J_PASSWORD and restarting is all it takes to rotate the local password.
   */
  private static void setPassword(GraphDatabaseService system, String user, String password) {
    boolean exists =
        system.executeTransactionally(
            "SHOW USERS YIELD user WHERE user = $user RETURN count(*) AS n",
            Map.of("user", user),
            r -> ((Number) r.next().get("n")).longValue() > 0);
    String verb = exists ? "ALTER" : "CREATE";
    // The user name cannot be a parameter in administration commands; it is validated in Config.
    try {
      system.executeTransactionally(
          verb + " USER `" + user + "` SET PLAINTEXT PASSWORD $pw CHANGE NOT REQUIRED",
          Map.of("pw", password));
    } catch (RuntimeException e) {
      // Neo4j refuses to set the password a user already has: then there is nothing to do.
      if (!exists || !String.valueOf(rootMessage(e)).contains("cannot be the same")) {
        throw e;
      }
    }
  }

  private static boolean portFree(String host, int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getByName(host), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage();
    return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }

  private static void fail(int code, String message) {
    System.err.println("navi-neo4j: " + message);
    System.exit(code);
  }

  /** Launcher settings, from flags first and then NAVI_NEO4J_* environment variables. */
  static final class Config {
    Path home;
    String bind;
    int boltPort;
    boolean authEnabled;
    String user;
    String password;
    long pageCacheMiB;

    static Config parse(String[] args) {
      Map<String, String> env = System.getenv();
      Config c = new Config();
      c.home = Path.of(env.getOrDefault("NAVI_NEO4J_DATA", ".state/neo4j")).toAbsolutePath();
      c.bind = env.getOrDefault("NAVI_NEO4J_BIND", "127.0.0.1");
      String port = env.getOrDefault("NAVI_NEO4J_BOLT_PORT", "7687");
      String auth = env.getOrDefault("NAVI_NEO4J_AUTH", "true");
      c.user = env.getOrDefault("NAVI_NEO4J_USER", "neo4j");
      c.password = env.getOrDefault("NAVI_NEO4J_PASSWORD", "");
      String pageCache = env.getOrDefault("NAVI_NEO4J_PAGECACHE_MIB", "256");
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        String v = i + 1 < args.length ? args[i + 1] : null;
        switch (a) {
          case "--data" -> c.home = Path.of(require(a, v)).toAbsolutePath();
          case "--bind" -> c.bind = require(a, v);
          case "--bolt-port" -> port = require(a, v);
          case "--auth" -> auth = require(a, v);
          case "--user" -> c.user = require(a, v);
          case "--pagecache-mib" -> pageCache = require(a, v);
          default -> throw new IllegalArgumentException(
              "unknown flag " + a + " (flags: --data DIR --bind ADDR --bolt-port N --auth true|false"
                  + " --user NAME --pagecache-mib N; the password comes from NAVI_NEO4J_PASSWORD)");
        }
        i++;
      }
      c.boltPort = parseInt("bolt port", port, 1, 65535);
      c.pageCacheMiB = parseInt("page cache MiB", pageCache, 8, 1 << 20);
      if (!auth.equals("true") && !auth.equals("false")) {
        throw new IllegalArgumentException("NAVI_NEO4J_AUTH must be true or false, not " + auth);
      }
      c.authEnabled = auth.equals("true");
      if (c.authEnabled) {
        if (!c.user.matches("[A-Za-z][A-Za-z0-9_.-]*")) {
          throw new IllegalArgumentException("NAVI_NEO4J_USER " + c.user + " is not a valid user name");
        }
        if (c.password.length() < 8) {
          throw new IllegalArgumentException(
              "NAVI_NEO4J_PASSWORD must be set to at least 8 characters when authentication is on"
                  + " (or set NAVI_NEO4J_AUTH=false)");
        }
      }
      return c;
    }

    private static String require(String flag, String value) {
      if (value == null) {
        throw new IllegalArgumentException("flag " + flag + " needs a value");
      }
      return value;
    }

    private static int parseInt(String what, String s, int min, int max) {
      try {
        int n = Integer.parseInt(s.trim());
        if (n < min || n > max) {
          throw new NumberFormatException();
        }
        return n;
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(what + " must be a number from " + min + " to " + max + ", not " + s);
      }
    }
  }
}
