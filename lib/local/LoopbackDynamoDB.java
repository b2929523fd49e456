// DynamoDB Local's own entry point listens on every interface and has no option to choose one.
// This one builds the same server from the same command line, then binds its Jetty connector to
// the loopback address before it starts, so nothing outside this machine can reach the data.
// Java runs it from source (java LoopbackDynamoDB.java ...), with DynamoDB Local's jars on the class path.
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class LoopbackDynamoDB {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    for (Connector c : ((Server) field.get(proxy)).getConnectors()) ((ServerConnector) c).setHost("127.0.0.1");
    proxy.start();
    proxy.join();
  }
}
