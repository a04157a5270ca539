// Entry of the UI bundle: theme CSS first (so the first render is painted in the right theme), then the elements.
import { installThemeCss } from './theme.ts';
import './components/cost-overview-view.ts';
import './components/cost-insights-view.ts';
import './components/cost-sessions-view.ts';
import './components/cost-project-view.ts';
import './components/cost-repository-view.ts';
import './components/cost-session-view.ts';
import './components/cost-app.ts';

installThemeCss();
