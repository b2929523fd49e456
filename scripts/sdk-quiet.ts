// Imported first by every command that loads the AWS SDK: modules create their clients as they are
// loaded, and the SDK prints its Node.js version notice at the first client unless this is set
// before then (an assignment in the command itself runs after all of its imports).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
