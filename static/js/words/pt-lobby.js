// Portuguese (Brazilian) for the player pages around the game: the lobby (static/js/lobby.js),
// the invite link's page (join.js), "My games", the replay, the leaderboard, a player's
// profile and the site's statistics; each adds it to the shared catalog (addMessages). The
// forms an entry may take are those of static/js/words.js. Refusals from the server are worded
// by the "error.<code>" entries of pt-server.js, which come with these (the pages' own calls
// to the server are what they do); the entries below word only what a page says itself.
import server from "./pt-server.js";
import { signedChange } from "./signed.js";

export default {
  // A name as player.js checks it before asking the server
  "common.name.blank": "Digite um nome primeiro.",
  "common.name.too_long": { one: "Um nome tem no máximo {n} caractere.", many: "Um nome tem no máximo {n} caracteres.", other: "Um nome tem no máximo {n} caracteres." },
  "common.name.control": "Um nome não pode conter caracteres de controle.",
  ...server,

  // ------------------------------------------------------------ the lobby: the name
  "lobby.ask_name.play": "Escolha um nome e encontraremos um adversário para você.",
  "lobby.ask_name.play_again": "Escolha um nome e clique de novo em Jogar.",
  "lobby.ask_name.create": "Escolha um nome e sua partida será criada.",
  "lobby.ask_name.join": "Escolha um nome e você entrará na partida de {name}.",

  // ------------------------------------------------------------ the lobby socket
  "lobby.connection.connecting": "Conectando…",
  "lobby.connection.online": "Ao vivo",
  "lobby.connection.offline": "Sem conexão: reconectando…",

  // ------------------------------------------------------------ quick match
  "lobby.queue.elapsed": "{minutes}:{seconds}",
  "lobby.queue.replaced": "Você clicou em Jogar em outra aba: agora é ela que está aguardando.",
  "lobby.queue.left": "Você saiu da fila.",
  "lobby.queue.matched": "Adversário encontrado: abrindo a partida…",

  // ------------------------------------------------------------ playing the computer
  "lobby.ask_name.computer": "Escolha um nome e sua partida contra o computador começa.",
  "lobby.computer.title": "Jogar contra o computador",
  "lobby.computer.hint": "Uma partida na hora, quando você quiser; nunca ranqueada.",
  "lobby.computer.level": "Nível",
  "lobby.computer.about.random": "faz qualquer jogada permitida",
  "lobby.computer.about.greedy": "pega o que parece melhor no momento",
  "lobby.computer.about.easy": "pensa um pouco à frente",
  "lobby.computer.about.medium": "pensa mais à frente",
  "lobby.computer.about.hard": "pensa o mais à frente possível",
  "lobby.computer.starts": "Quem começa",
  "lobby.computer.starts.random": "Sorteio",
  "lobby.computer.starts.me": "Eu",
  "lobby.computer.starts.computer": "O computador",
  "lobby.computer.wonders": "Maravilhas",
  "lobby.computer.wonders.draft": "Seleção (4 + 4)",
  "lobby.computer.wonders.first_game": "As do livro de regras",
  "lobby.computer.play": "Jogar",
  "lobby.computer.starting": "Iniciando sua partida…",

  // ------------------------------------------------------------ joining an open game
  "lobby.join_refused.game_full": "Outra pessoa entrou nessa partida primeiro.",
  "lobby.join_refused.own_game": "Essa partida é sua: aguarde nela por um adversário.",
  "lobby.join_refused.not_joinable": "Não é mais possível entrar nessa partida.",
  "lobby.join_refused.not_found": "Essa partida não existe mais.",

  // ------------------------------------------------------------ the lists
  "lobby.count": "({n})",
  "lobby.versus": "{a} x {b}",
  "lobby.options": "{wonders} · {starter} · {control}",
  "lobby.options.first_game": "Maravilhas do livro de regras",
  "lobby.options.draft": "seleção de Maravilhas",
  "lobby.options.starts": "{name} começa",
  "lobby.options.random_start": "primeiro jogador sorteado",
  "lobby.ago.now": "agora mesmo",
  "lobby.ago.minutes": { one: "há {n} min", many: "há {n} min", other: "há {n} min" },
  "lobby.ago.hours": { one: "há {n} h", many: "há {n} h", other: "há {n} h" },
  "lobby.ago.days": { one: "há {n} dia", many: "há {n} dias", other: "há {n} dias" },
  "lobby.progress.not_begun": "não iniciada · criada {ago}",
  "lobby.progress.moves": { one: "{n} jogada · última jogada {ago}", many: "{n} jogadas · última jogada {ago}", other: "{n} jogadas · última jogada {ago}" },
  "lobby.link.open": "Abrir",
  "lobby.link.resume": "Retomar",
  "lobby.link.watch": "Assistir",
  "lobby.link.view": "Ver",
  "lobby.link.replay": "Rever",

  // Open games
  "lobby.open.meta": "{options} · oferecida {ago}",
  "lobby.open.yours": "Sua — aguardando",
  "lobby.open.open_label": "Abrir sua partida",
  "lobby.open.join": "Entrar",
  "lobby.open.join_label": "Entrar na partida de {name}",

  // Games in progress
  "lobby.live.meta": "{progress} · {options}",
  "lobby.live.resume_label": "Retomar sua partida: {names}",
  "lobby.live.watch_label": "Assistir: {names}",

  // The player's games
  "lobby.mine.versus": "contra {name}",
  "lobby.mine.no_opponent": "Ainda sem adversário",
  "lobby.mine.no_player": "Escolha um nome para jogar: suas partidas vão aparecer aqui.",
  "lobby.mine.waiting_invite": "só por link de convite · criada {ago}",
  "lobby.mine.waiting_listed": "listada no lobby · criada {ago}",
  "lobby.mine.open_label": "Abrir sua partida em espera",
  "lobby.mine.your_turn": "Sua vez",
  "lobby.mine.their_turn": "Vez de {name}",
  "lobby.mine.resume_label": "Retomar sua partida {opponent}",
  "lobby.mine.finished": { one: "terminada {ago} · {n} jogada", many: "terminada {ago} · {n} jogadas", other: "terminada {ago} · {n} jogadas" },
  "lobby.mine.finished_label": "Ver sua partida terminada {opponent}",
  "lobby.mine.aborted": "Anulada: sem resultado",
  "lobby.mine.expired": "Expirada",
  "lobby.mine.replay_label": "Rever a partida {opponent}, jogada a jogada",
  "replay.setup": { one: "A preparação, antes da primeira de {n} jogada", many: "A preparação, antes da primeira de {n} jogadas", other: "A preparação, antes da primeira de {n} jogadas" },
  "replay.after": "Após a jogada {n} de {last}",
  "replay.revealed": "Após a última jogada: tudo revelado",
  "lobby.mine.expired_meta": "ninguém entrou · expirou {ago}",
  "lobby.mine.stopped": { one: "interrompida {ago} · {n} jogada", many: "interrompida {ago} · {n} jogadas", other: "interrompida {ago} · {n} jogadas" },
  "lobby.mine.aborted_label": "Ver sua partida cancelada {opponent}",
  "lobby.mine.view_label": "Ver a partida {opponent}",
  "lobby.result.shared": "Vitória compartilhada · {victory}",
  "lobby.result.won": "Vitória · {victory}",
  "lobby.result.lost": "Derrota · {victory}",
  "lobby.victory.civilian": "vitória civil",
  "lobby.victory.military": "supremacia militar",
  "lobby.victory.science": "supremacia científica",
  "lobby.victory.resigned": "por desistência",
  "lobby.victory.time": "por tempo",
  "lobby.victory.abandoned": "por abandono",

  // ------------------------------------------------------------ ratings, in the lists too
  // A rating as the server rounds it, "?" after one still provisional (few rated games).
  "rating.value": ({ rating, provisional }) => (provisional ? `${rating}?` : String(rating)),
  "rating.in_list": "({rating})",
  "rating.provisional": "Rating provisório: ainda há poucas partidas ranqueadas para ter certeza dele",
  "lobby.rated": "Ranqueada",
  "lobby.rated_title": "Partida ranqueada: o resultado altera o rating dos dois jogadores",

  // ------------------------------------------------------------ the leaderboard
  "leaderboard.note": {
    one: "Contas com pelo menos {n} partida ranqueada, do maior rating para o menor. Um “?” indica rating provisório: ainda há poucas partidas para ter certeza dele.",
    many: "Contas com pelo menos {n} partidas ranqueadas, do maior rating para o menor. Um “?” indica rating provisório: ainda há poucas partidas para ter certeza dele.",
    other: "Contas com pelo menos {n} partidas ranqueadas, do maior rating para o menor. Um “?” indica rating provisório: ainda há poucas partidas para ter certeza dele.",
  },
  "leaderboard.empty": "Ninguém está na classificação ainda: uma conta aparece nela depois de jogar partidas ranqueadas.",
  "leaderboard.empty_page": "Esta página da classificação está vazia.",
  "leaderboard.page": { one: "Página {page} de {pages} · {n} jogador", many: "Página {page} de {pages} · {n} jogadores", other: "Página {page} de {pages} · {n} jogadores" },

  // ------------------------------------------------------------ a player's profile
  "profile.not_found": "Nenhum jogador tem o nome de usuário {username}.",
  "profile.plays_as": "{username}, jogando como {name}",
  "profile.deviation": "mais ou menos {n}",
  "profile.provisional": "provisório: ainda há poucas partidas ranqueadas",
  "profile.games": { one: "{n} partida", many: "{n} partidas", other: "{n} partidas" },
  "profile.rated_games": { one: "{n} ranqueada", many: "{n} ranqueadas", other: "{n} ranqueadas" },
  "profile.wins": { one: "{n} vitória", many: "{n} vitórias", other: "{n} vitórias" },
  "profile.losses": { one: "{n} derrota", many: "{n} derrotas", other: "{n} derrotas" },
  "profile.shared": { one: "{n} compartilhada", many: "{n} compartilhadas", other: "{n} compartilhadas" },
  "profile.since": "Cadastro em {day}",
  "profile.chart.title": "Rating de {name} após cada partida ranqueada",
  "profile.chart.desc": {
    one: "Uma partida ranqueada até agora: rating de {last} depois dela.",
    many: "{n} partidas ranqueadas: de {first} após a primeira a {last} após a mais recente; mínimo {low}, máximo {high}.",
    other: "{n} partidas ranqueadas: de {first} após a primeira a {last} após a mais recente; mínimo {low}, máximo {high}.",
  },
  "profile.chart.point": "Partida ranqueada {n}, {day}: {rating}",
  "profile.chart.none": "Nenhuma partida ranqueada ainda.",
  "profile.wonder.picked": { one: "escolhida uma vez", many: "escolhida {n} vezes", other: "escolhida {n} vezes" },
  "profile.wonder.win_rate": { one: "{rate}% de vitórias em {n} partida", many: "{rate}% de vitórias em {n} partidas", other: "{rate}% de vitórias em {n} partidas" },
  "profile.wonders.none": "Nenhuma Maravilha escolhida ainda.",
  "profile.wonders.best_hint": { one: "(entre as escolhidas pelo menos uma vez)", many: "(entre as escolhidas em {n} partidas ou mais)", other: "(entre as escolhidas em {n} partidas ou mais)" },
  "profile.wonders.no_best": { one: "Nenhuma ainda.", many: "Nenhuma ainda: uma Maravilha entra aqui depois de ser escolhida em {n} partidas.", other: "Nenhuma ainda: uma Maravilha entra aqui depois de ser escolhida em {n} partidas." },
  "profile.recent.none": "Nenhuma partida terminada ainda.",
  "profile.recent.unrated": "não ranqueada",
  "profile.recent.change_title": "Variação do rating",
  // A rating's change, rounded: +12, −8 (a minus sign, not a hyphen).
  "profile.recent.change": ({ change }) => signedChange(change),

  // ------------------------------------------------------------ ends, by kind (tables)
  "standings.kind.civilian": "Vitória civil",
  "standings.kind.military": "Supremacia militar",
  "standings.kind.science": "Supremacia científica",
  "standings.kind.resigned": "Desistência",
  "standings.kind.time": "Tempo esgotado",
  "standings.kind.abandoned": "Abandono",
  "standings.kind.shared": "Vitória compartilhada",
  "standings.percent": "{n}%",
  "standings.figure": "{n}",
  "standings.none": "—",

  // ------------------------------------------------------------ the site's statistics
  "stats.games": {
    one: "{n} partida terminada neste site (os números são atualizados a cada minuto).",
    many: "{n} partidas terminadas neste site (os números são atualizados a cada minuto).",
    other: "{n} partidas terminadas neste site (os números são atualizados a cada minuto).",
  },
  "stats.empty": "Nenhuma partida terminou ainda: os números aparecem com a primeira.",
  "stats.first_player": {
    one: "Quem começou venceu {rate}% de {n} partida com vencedor.",
    many: "Quem começou venceu {rate}% das {n} partidas com vencedor.",
    other: "Quem começou venceu {rate}% das {n} partidas com vencedor.",
  },
  "stats.first_player.none": "Nenhuma partida teve vencedor ainda.",
  "stats.length": "Em média, uma partida tem {moves} e dura {minutes}.",
  "stats.moves": { one: "{n} jogada", many: "{n} jogadas", other: "{n} jogadas" },
  "stats.minutes": { one: "{n} minuto", many: "{n} minutos", other: "{n} minutos" },

  // ------------------------------------------------------------ the invite link's page
  "join.invited_by": "{name} convida você para jogar.",
  "join.invited": "Você recebeu um convite para jogar.",
  "join.aborted": "Esta partida foi cancelada.",
  "join.cancelled": "Quem criou esta partida a cancelou: ninguém pode entrar nela.",
  "join.full": "Os dois lugares desta partida estão ocupados.",
  "join.watch_instead": "Assistir à partida",
  "join.no_game": "Este link de convite não indica nenhuma partida: confira se ele foi copiado inteiro.",
  "join.own_game": "Esta partida é sua: envie o link para seu adversário.",
  "join.go_to_game": "Ir para sua partida",
  "join.seat_taken": "Outra pessoa ocupou o lugar primeiro.",
  "join.no_code": "Este link perdeu o código de convite, a parte a partir de “#code=” que termina o link completo. Peça ao seu adversário o link completo (a página da partida dele o mostra, com o botão “Copiar link”) e abra esse.",
  "join.bad_invite": "Este link de convite não é válido para a partida: peça um novo.",
  "join.rated": "Partida ranqueada: o resultado altera o rating dos dois jogadores, e só uma conta pode entrar.",
  "join.clock": "Relógio: {control}.",
};
