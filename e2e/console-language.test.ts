import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium } from '../packages/testkit/src/e2e/browser.js';
import { useConsoleSuite } from '../packages/testkit/src/e2e/console.js';
import { botApi } from '../packages/testkit/src/e2e/knowledge.js';
import { chatClient } from '../packages/testkit/src/server/chat.js';
import { testSite } from '../packages/testkit/src/server/test-site.js';

const chromiumHere = haveChromium('Console language browser tests');

describe.skipIf(!chromiumHere)("the Console in the member's language", () => {
  // Workers: the bot answers visitors, files are indexed and sites crawled, as in production (a site on 127.0.0.1).
  const suite = useConsoleSuite({ workers: true, env: { PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  const site = testSite({ pages: 3 });

  /** A fresh browser profile in `locale` on the Console's address; its page errors collected. */
  async function consoleIn(locale: string, refuse?: string): Promise<{ page: Page; problems: string[] }> {
    const context = await suite.browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    if (refuse) {
      // Scripts holding `refuse` fail to load, as on a dropped connection.
      await page.route('**/console/assets/*.js', async (route) => {
        const response = await route.fetch();
        const body = await response.text();
        if (body.includes(refuse)) await route.abort();
        else await route.fulfill({ response, body });
      });
    }
    await page.goto(`${suite.origin}/console/`);
    return { page, problems };
  }

  /** A member signed in on a browser in fr-FR, on the bots list. */
  async function signedInFrench(): Promise<{ page: Page; problems: string[] }> {
    const opened = await consoleIn('fr-FR');
    await opened.page.getByLabel('E-mail').fill(suite.t.owner.email);
    await opened.page.getByLabel('Mot de passe').fill(suite.t.owner.password);
    await opened.page.getByRole('button', { name: 'Se connecter' }).click();
    await opened.page.getByRole('heading', { name: 'Bots' }).waitFor();
    return opened;
  }

  it('shows a browser in fr-FR the sign-in page, the top bar, the bots list and a bot tabs in French', async () => {
    const { page, problems } = await consoleIn('fr-FR');
    await page.getByRole('heading', { name: 'Se connecter à Parley' }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('fr');
    expect(await page.title()).toBe('Connexion · Parley');
    // A wrong password is said in French.
    await page.getByLabel('E-mail').fill(suite.t.owner.email);
    await page.getByLabel('Mot de passe').fill('not the password at all');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByRole('alert').getByText('E-mail ou mot de passe incorrect', { exact: true }).waitFor();
    await page.getByLabel('E-mail').fill(suite.t.owner.email);
    await page.getByLabel('Mot de passe').fill(suite.t.owner.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByRole('heading', { name: 'Bots' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Rubriques' });
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      'Bots',
      'Équipe',
      'Paramètres',
      'Journal d’audit',
      'Utilisation',
      'Compte',
    ]);
    await page.getByRole('button', { name: 'Se déconnecter' }).waitFor();
    await page.getByLabel('Espace de travail').waitFor();
    // The Get started checklist (a member of this new workspace is still to be invited).
    await page.getByRole('heading', { name: 'Pour commencer' }).waitFor();
    await page.getByRole('button', { name: 'Masquer cette liste' }).waitFor();
    expect(await page.locator('.first-run-what .hint').allTextContents()).toContain(
      'Invitez les personnes qui répondent aux visiteurs ou tiennent les connaissances à jour.',
    );
    // The bot's creation date is written the French way (day before month).
    const created = await page.locator('.list-row .muted').first().textContent();
    expect(created).toMatch(/^Créé le \d{1,2} [a-zéû]+\.? \d{4}/);
    await page.locator('.list-row a').first().click();
    const tabs = page.getByRole('navigation', { name: 'Rubriques du bot' });
    await tabs.waitFor();
    expect(await tabs.getByRole('link').first().textContent()).toBe('Vue d’ensemble');
    expect(await page.locator('.facts dt').allTextContents()).toEqual([
      'Identifiant du bot',
      'Espace de travail',
      'Dernière modification',
      'Liens vers les sources',
    ]);
    await page.getByRole('link', { name: '← Tous les bots' }).waitFor();
    await page.getByRole('link', { name: 'Équipe' }).click();
    await page.getByRole('heading', { name: 'Équipe' }).waitFor();
    await page.goto(`${suite.origin}/console/nowhere`);
    await page.getByRole('heading', { name: 'Page introuvable' }).waitFor();
    await page.getByRole('link', { name: 'Aller à vos bots' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('switches the language on the account page at once, and this browser keeps the choice', async () => {
    const { page } = await consoleIn('en-US');
    await suite.signIn(page);
    await page.getByRole('heading', { name: 'Bots' }).waitFor();
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByLabel('Language of the Console').selectOption('fr');
    // At once: not when something else happens to draw the page again (that took 5 s before the fix).
    await page.getByRole('heading', { name: 'Compte' }).waitFor({ timeout: 3000 });
    await page.getByRole('link', { name: 'Paramètres' }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('fr');
    await page.reload();
    await page.getByRole('heading', { name: 'Compte' }).waitFor();
    // Back to the browser's language.
    await page.getByLabel('Langue de la Console').selectOption('');
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('en');
  });

  it("sets the bot's own words per language in French: a German not-found text beside the default language's", async () => {
    const { page, problems } = await signedInFrench();
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}`);
    await page.getByRole('heading', { name: 'Réponses' }).waitFor();
    await page.getByLabel('Quand rien n’est trouvé').fill('Nothing on that: write to help@example.com.');
    await page.getByLabel('Textes en').selectOption('de');
    const notFound = page.getByLabel('Quand rien n’est trouvé');
    expect(await notFound.inputValue()).toBe('');
    expect(await notFound.getAttribute('placeholder')).toBe('Mots intégrés (Deutsch)');
    await notFound.fill('Dazu weiß ich nichts: schreiben Sie an hilfe@example.com.');
    await page.getByLabel('Personne n’est venu').fill('Gerade ist niemand frei.');
    await page.getByRole('button', { name: 'Enregistrer les réponses' }).click();
    await page.getByText(/^Réponses enregistrées/).waitFor();
    const stored = await suite.t.asOwner('GET', `/v1/admin/bots/${suite.t.botId}`);
    expect((stored.json() as { bot: { replies: object } }).bot.replies).toEqual({
      notFound: 'Nothing on that: write to help@example.com.',
      locales: {
        de: {
          notFound: 'Dazu weiß ich nichts: schreiben Sie an hilfe@example.com.',
          handoffTimeout: 'Gerade ist niemand frei.',
        },
      },
    });
    await suite.t.asOwner('PUT', `/v1/admin/bots/${suite.t.botId}`, { replies: {} });
    expect(problems).toEqual([]);
  });

  it('shows the usage, insights, Q&A, playground and audit pages in French, sizes and counts written the French way', async () => {
    const { page, problems } = await signedInFrench();
    await page.getByRole('link', { name: 'Utilisation' }).click();
    await page.getByRole('heading', { name: 'Utilisation' }).waitFor();
    const figure = (label: string) => page.locator('.usage', { hasText: label }).locator('.usage-text');
    await figure('Bots').first().waitFor();
    expect(await figure('Bots').first().textContent()).toMatch(/^\d+ (\(sans limite\)|sur \d)/);
    expect(await figure('Stockage des fichiers').first().textContent()).toMatch(/ (octets?|KB|MB|GB)\b/);
    await page.getByRole('heading', { name: 'Espace de travail' }).waitFor();
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/qa`);
    await page.getByRole('heading', { name: 'Q/R', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Ajouter une entrée' }).waitFor();
    await page.getByLabel('Rechercher des entrées').waitFor();
    await page.getByRole('button', { name: 'Ajouter une entrée' }).click();
    await page.getByRole('heading', { name: 'Nouvelle entrée' }).waitFor();
    await page.getByRole('button', { name: 'Ajouter l’entrée' }).waitFor();
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/insights`);
    await page.getByRole('heading', { name: 'Statistiques', exact: true }).waitFor();
    expect(await page.getByLabel('Période').locator('option').first().textContent()).toBe('7 derniers jours');
    expect(await page.locator('.tile dt').allTextContents()).toContain('Avis positifs');
    await page.getByRole('heading', { name: 'Questions les plus fréquentes restées sans réponse' }).waitFor();
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/playground`);
    await page.getByRole('heading', { name: 'Bac à sable de recherche' }).waitFor();
    await page.getByLabel('Question', { exact: true }).fill('Combien de jours de congé ?');
    await page.getByRole('button', { name: 'Rechercher', exact: true }).click();
    await page.getByRole('heading', { name: 'La réponse du bot' }).waitFor();
    // The passages found, or none in French words.
    await page
      .getByRole('list', { name: 'Passages trouvés' })
      .or(page.getByText(/^Rien ne correspond à « Combien de jours de congé \? »/))
      .first()
      .waitFor();
    expect(await page.getByLabel('Mode de recherche').locator('option').first().textContent()).toBe(
      'Hybride (mots et sens)',
    );
    await page.getByRole('link', { name: 'Journal d’audit' }).click();
    await page.getByLabel('Auteur').waitFor();
    expect(await page.getByLabel('Action').locator('option').first().textContent()).toBe(
      'Toutes les actions',
    );
    await page.getByRole('list', { name: 'Journal d’audit' }).getByRole('listitem').first().waitFor();
    // Actions by their French names, in the filter and on each record.
    expect(await page.getByLabel('Action').locator('option').allTextContents()).toContain('Bot créé');
    const actions = await page.locator('.audit-row .list-title').allTextContents();
    expect(actions).toContain('Bot créé');
    expect(actions.filter((a) => / (created|changed|deleted|uploaded|invited|removed)$/.test(a))).toEqual([]);
    expect(await page.locator('.audit-row .muted').first().textContent()).toMatch(/ par /);
    expect(problems).toEqual([]);
  });

  it('shows the knowledge pages in French: the knowledge bases, one of them with its drop zone, an upload and its Website tab, the Files table and a file page', async () => {
    const { page, problems } = await signedInFrench();
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/knowledge`);
    await page.getByRole('heading', { name: 'Bases de connaissances' }).waitFor();
    await page.getByLabel('Nom de la base de connaissances').fill('Manuels');
    await page.getByRole('button', { name: 'Créer la base de connaissances' }).click();
    await page.getByText('Base de connaissances « Manuels » créée.', { exact: false }).waitFor();
    await page.getByRole('heading', { name: 'Déposez ici des fichiers PDF, Word ou Markdown' }).waitFor();
    await page.getByText('Choisir des fichiers', { exact: true }).waitFor();
    const counts = page.locator('.page-head', { has: page.getByRole('heading', { name: 'Manuels' }) });
    expect(await counts.locator('.muted').textContent()).toBe('Aucun fichier pour l’instant');
    await page.locator('#kb-file-picker').setInputFiles({
      name: 'conges.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Vingt-cinq jours de congé par an.'),
    });
    await page.getByRole('heading', { name: 'Envois' }).waitFor();
    await page
      .getByRole('list', { name: 'Fichiers de cette base de connaissances' })
      .getByRole('link', { name: 'conges.txt' })
      .waitFor();
    await page.getByRole('link', { name: 'Site web' }).click();
    await page.getByRole('heading', { name: 'Sites web' }).waitFor();
    await page.getByText('Aucun site web pour l’instant.').waitFor();
    await page.getByRole('button', { name: 'Ajouter le site web' }).waitFor();
    await page.getByRole('link', { name: '← Bases de connaissances' }).click();
    const row = page.locator('.kb-row', { hasText: 'Manuels' });
    await row.getByRole('button', { name: 'Renommer Manuels' }).waitFor();
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/files`);
    await page.getByRole('heading', { name: 'Fichiers', exact: true }).waitFor();
    expect(await page.getByLabel('État').locator('option').first().textContent()).toBe('Tous les états');
    await page.getByRole('link', { name: 'conges.txt' }).click();
    await page.getByRole('heading', { name: 'Détails' }).waitFor();
    await page.getByRole('link', { name: 'Télécharger' }).waitFor();
    expect(await page.locator('.facts dt').allTextContents()).toContain('Type de contenu');
    // Its tags, access and passages panels.
    await page.getByRole('heading', { name: 'Étiquettes' }).waitFor();
    await page.getByLabel('Clé de l’étiquette').fill('sujet');
    await page.getByLabel('Valeur de l’étiquette').fill('congés');
    await page.getByRole('button', { name: 'Ajouter l’étiquette' }).click();
    await page.getByText('Étiquette « sujet » enregistrée.').waitFor();
    await page.getByRole('list', { name: 'Étiquettes' }).getByText('sujet=congés').waitFor();
    await page.getByRole('button', { name: 'Retirer l’étiquette sujet' }).waitFor();
    await page.getByRole('heading', { name: 'Accès' }).waitFor();
    await page.getByRole('button', { name: 'Rendre public' }).click();
    await page.getByLabel('URL permanente').waitFor();
    await page.getByRole('button', { name: 'Copier l’URL' }).waitFor();
    // Its passages: none while it is being indexed, then each with its number (either, on a loaded machine).
    await page
      .locator('section', { has: page.getByRole('heading', { name: 'Passages' }) })
      .getByText(/^(Aucun passage pour l’instant : ils apparaissent une fois le fichier indexé\.|Passage 1)$/)
      .waitFor();
    expect(problems).toEqual([]);
  });

  it("shows a site's crawl in French: its state, its run's outcome and why pages were skipped", async () => {
    const base = await site.start();
    try {
      const { page, problems } = await signedInFrench();
      const { knowledgeBase } = (await botApi(suite.origin, suite.t)('POST', '/v1/files/knowledge-bases', {
        name: 'Aide',
      })) as { knowledgeBase: { id: string } };
      await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/knowledge/${knowledgeBase.id}`);
      await page.getByRole('link', { name: 'Site web' }).click();
      await page.getByLabel('Adresse du site web').fill(`${base}/`);
      await page.getByRole('button', { name: 'Ajouter le site web' }).click();
      const row = page.getByRole('listitem', { name: `${base}/` });
      const runs = row.getByRole('list', { name: 'Dernières explorations' });
      await runs.getByText(/ : terminée — /).waitFor({ timeout: 90_000 });
      await row.getByText(/^Au repos · /).waitFor();
      await row.getByText(/^Pages ignorées/).click();
      const skipped = row.getByRole('list', { name: 'Pages ignorées' });
      await skipped.getByText(`${base}/private/secret — refusée par robots.txt`).waitFor();
      await skipped.getByText(`${base}/missing — erreur HTTP 404`).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await site.stop();
    }
  }, 150_000);

  it('shows the conversations desk and the logs in French: the desk tabs, search and filters, the log level', async () => {
    const { page, problems } = await signedInFrench();
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/conversations`);
    const tabs = page.getByRole('navigation', { name: 'Onglets de la boîte de réception' });
    await tabs.waitFor();
    expect(await tabs.getByRole('link').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^En attente/), expect.stringMatching(/^Toutes/)]),
    );
    await page.getByLabel('Rechercher des conversations').waitFor();
    await page.getByLabel('Avis négatifs').waitFor();
    await page.getByText('Exporter les conversations').waitFor();
    await page.getByLabel('M’avertir des visiteurs en attente').waitFor();
    // A visitor's question the bot finds nothing for: its transcript and Teach the bot, in French.
    const chat = chatClient(suite.t);
    const visitor = await chat.user({ name: 'Camille' });
    const conversation = await chat.conversation(visitor);
    await chat.message(visitor, conversation, 'Avez-vous un parking pour les vélos ?');
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/conversations/${conversation}`);
    await page.locator('.msg-head', { hasText: 'Visiteur (Camille)' }).waitFor();
    await page.locator('.msg[data-author="bot"] .msg-head', { hasText: /^Bot / }).waitFor();
    expect(await page.locator('.msg[data-author="bot"] .badge').textContent()).toBe('Sans réponse');
    await page.getByRole('heading', { name: 'Apprendre au bot' }).waitFor();
    expect(
      await page.getByRole('list', { name: 'Questions auxquelles répondre' }).getByRole('link').textContent(),
    ).toBe('Répondre à ceci : Avez-vous un parking pour les vélos ?');
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/logs`);
    await page.getByRole('heading', { name: 'Journaux' }).waitFor();
    expect(await page.getByLabel('Niveau').locator('option').first().textContent()).toBe('Tous les niveaux');
    await page.getByLabel('Suivi en direct').waitFor();
    expect(problems).toEqual([]);
  });

  it('shows the settings and the team pages in French: the settings form, member rows and the invitation form', async () => {
    const { page, problems } = await signedInFrench();
    await page.getByRole('link', { name: 'Paramètres' }).click();
    await page.getByRole('heading', { name: 'Paramètres de l’espace de travail' }).waitFor();
    // The heading shows before the workspace's settings have loaded into the form.
    await page.getByLabel('Nom de l’espace de travail').waitFor();
    await page.getByRole('button', { name: 'Enregistrer' }).waitFor();
    await page.getByRole('link', { name: 'Équipe' }).click();
    await page.getByRole('heading', { name: 'Inviter un membre' }).waitFor();
    expect(await page.getByLabel('Rôle', { exact: true }).locator('option').allTextContents()).toContain(
      'Lecteur',
    );
    await page.getByRole('button', { name: 'Inviter', exact: true }).waitFor();
    await page.locator('.member-row .list-title', { hasText: / \(vous\)$/ }).waitFor();
    expect(problems).toEqual([]);
  });

  it('shows the account page in French: its name, password, sessions and personal access tokens, a token created and revoked', async () => {
    const { page, problems } = await signedInFrench();
    await page.getByRole('link', { name: 'Compte' }).click();
    await page.getByRole('heading', { name: 'Votre nom' }).waitFor();
    await page.getByRole('button', { name: 'Enregistrer le nom' }).waitFor();
    await page.getByLabel('Mot de passe actuel').waitFor();
    await page.getByLabel('Répétez le nouveau mot de passe').waitFor();
    // Two new passwords that differ are refused in French before anything is sent.
    await page.getByLabel('Mot de passe actuel').fill(suite.t.owner.password);
    await page.getByLabel('Nouveau mot de passe', { exact: true }).fill('a new long password 1');
    await page.getByLabel('Répétez le nouveau mot de passe').fill('a new long password 2');
    await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await page.getByText('Les deux nouveaux mots de passe diffèrent. Saisissez deux fois le même.').waitFor();
    // This browser's session, its times written in French.
    const sessions = page.getByRole('list', { name: 'Sessions' });
    await sessions.getByText('Ce navigateur').waitFor();
    expect(await sessions.locator('.muted').first().textContent()).toMatch(
      /dernière activité le .* prend fin le /,
    );
    await page.getByRole('button', { name: 'Se déconnecter partout' }).waitFor();
    await page.getByRole('heading', { name: 'Jetons d’accès personnels' }).waitFor();
    expect(await page.getByLabel('Expiration').locator('option').allTextContents()).toEqual([
      'Jamais',
      'Dans 7 jours',
      'Dans 30 jours',
      'Dans 90 jours',
      'Dans un an',
    ]);
    await page.getByLabel('Note').fill('Script de sauvegarde');
    await page.getByLabel('Expiration').selectOption('30');
    await page.getByRole('button', { name: 'Créer le jeton' }).click();
    await page.getByText('Jeton « Script de sauvegarde » créé.').waitFor();
    await page.getByRole('button', { name: 'Copier le jeton' }).waitFor();
    const row = page.locator('.token-row', { hasText: 'Script de sauvegarde' });
    expect(await row.locator('.muted').textContent()).toMatch(/^Créé le .* · jamais utilisé · expire le /);
    await row.getByRole('button', { name: 'Révoquer' }).click();
    await row.getByText(/^Révoquer Script de sauvegarde \? Ce qui l’utilise cesse aussitôt/).waitFor();
    await row.getByRole('button', { name: 'Oui, révoquer' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("shows a bot's overview forms and its webchat designer in French", async () => {
    const { page, problems } = await signedInFrench();
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}`);
    await page.getByRole('heading', { name: 'Clés d’accès' }).waitFor();
    await page.getByRole('button', { name: 'Créer la clé' }).waitFor();
    await page.getByRole('button', { name: 'Désactiver le bot' }).waitFor();
    const links = page.getByLabel('Sources liées');
    expect(await links.locator('option').allTextContents()).toEqual([
      'Sources publiques seulement (recommandé)',
      'Toutes les sources',
      'Aucun lien',
    ]);
    await links.selectOption('none');
    expect(await page.locator('#bot-source-links-means').textContent()).toBe(
      'Les sources sont nommées par leur titre, jamais liées.',
    );
    await page.getByRole('button', { name: 'Appliquer' }).click();
    await page.getByText(/^Liens vers les sources enregistrés/).waitFor();
    await page.locator('.facts dd', { hasText: 'Aucun lien' }).waitFor();
    await suite.t.asOwner('PUT', `/v1/admin/bots/${suite.t.botId}`, { sourceLinks: 'public' });
    await page.getByRole('button', { name: 'Supprimer le bot' }).waitFor();

    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/webchat`);
    await page.getByRole('heading', { name: 'L’ajouter à un site' }).waitFor();
    await page.getByRole('button', { name: 'Copier l’extrait' }).waitFor();
    await page.getByLabel('Couleur principale').waitFor();
    const form = page.getByRole('form', { name: 'Configuration du webchat' });
    expect(await form.locator('legend').allTextContents()).toEqual(
      expect.arrayContaining(['Apparence', 'Textes', 'Accueil et questions suggérées', 'Comportement']),
    );
    expect(await page.getByLabel('Thème').locator('option').allTextContents()).toEqual([
      'Par défaut (clair)',
      'clair',
      'sombre',
    ]);
    // The webchat's languages keep their own names.
    expect(await page.getByLabel('Langue du chat').locator('option').allTextContents()).toContain('Deutsch');
    await page.getByRole('button', { name: 'Ajouter une question' }).click();
    await page.getByLabel('Question 1').fill('Quels sont vos horaires ?');
    await page.getByText('1 sur 4').waitFor();
    await page.getByText('Changements non enregistrés : l’aperçu les montre.').waitFor();
    await page.getByLabel('Arrondi des coins').fill('neuf');
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page
      .getByText('Parley a refusé certaines valeurs : voyez les messages à côté des champs.')
      .waitFor();
    expect(problems).toEqual([]);
  });

  it('stays in English, usable, when the French words cannot be loaded', async () => {
    // The French catalog is the only script holding these words.
    const { page, problems } = await consoleIn('fr-FR', 'Mot de passe');
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).not.toBe('fr');
    expect(problems).toEqual([]);
  });
});
