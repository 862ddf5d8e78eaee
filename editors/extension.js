// Starts `gamedef lsp` for .game files (the command is the setting `gamedef.command`).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("gamedef").get("command", ["gamedef", "lsp"]);
  client = new LanguageClient(
    "gamedef",
    "gamedef",
    { command, args },
    { documentSelector: [{ scheme: "file", language: "gamedef" }, { scheme: "untitled", language: "gamedef" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
