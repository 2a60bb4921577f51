// The not-found page: only the navigation that fits who is signed in.
import { onSignOut, setUpChrome } from "./common.js";
import { server } from "./server.js";

onSignOut(server.signOut);
setUpChrome();
